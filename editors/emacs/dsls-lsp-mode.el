;;; dsls-lsp-mode.el --- The dsls client for lsp-mode -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "27.1") (lsp-mode "8.0.0"))

;;; Commentary:

;; Registers dsls with lsp-mode: the client (server id `dsls') for
;; `dsls-config-mode' and `dsls-log-mode', and the dsls settings as lsp-mode
;; custom settings, which answer the server's workspace/configuration requests
;; and are pushed with workspace/didChangeConfiguration when they change.
;; dsls.el loads this file once lsp-mode is loaded; only lsp-mode's public
;; functions and macros are used.

;;; Code:

(require 'lsp-mode)
(require 'dsls)

(add-to-list 'lsp-language-id-configuration '(dsls-config-mode . "json"))
(add-to-list 'lsp-language-id-configuration '(dsls-log-mode . "log"))

(lsp-register-custom-settings
 (mapcar (lambda (entry)
           (let ((key (car entry)))
             (list (concat "dsls." key) (lambda () (gethash key (dsls-settings))))))
         dsls-setting-variables))

(defun dsls-lsp-mode--send-settings (workspace)
  "Send the dsls settings to WORKSPACE with workspace/didChangeConfiguration."
  (with-lsp-workspace workspace
    (lsp-notify "workspace/didChangeConfiguration" (list :settings (lsp-configuration-section "dsls")))))

(defun dsls-lsp-mode-workspaces ()
  "The running lsp-mode workspaces of dsls, each once."
  (delete-dups (delq nil (mapcar (lambda (folder) (lsp-find-workspace 'dsls folder))
                                 (lsp-session-folders (lsp-session))))))

(defun dsls-lsp-mode-apply-settings ()
  "Send the current settings to every dsls workspace of lsp-mode."
  (mapc #'dsls-lsp-mode--send-settings (dsls-lsp-mode-workspaces)))

(lsp-register-client
 (make-lsp-client
  :new-connection (lsp-stdio-connection #'dsls--command)
  :major-modes '(dsls-config-mode dsls-log-mode)
  :language-id (lambda (buffer)
                 (if (provided-mode-derived-p (buffer-local-value 'major-mode buffer) 'dsls-log-mode)
                     "log" "json"))
  :server-id 'dsls
  :priority 1
  :add-on? t
  :initialization-options #'dsls-settings
  :initialized-fn #'dsls-lsp-mode--send-settings))

(provide 'dsls-lsp-mode)
;;; dsls-lsp-mode.el ends here
