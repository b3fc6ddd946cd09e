;;; dsls-eglot.el --- The dsls server class for Eglot -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "27.1") (eglot "1.9"))

;;; Commentary:

;; Registers dsls with Eglot: a server class that answers the server's
;; workspace/configuration requests with the dsls settings and sends them as
;; initializationOptions, and the `eglot-server-programs' entries for
;; `dsls-config-mode' and `dsls-log-mode'.  dsls.el loads this file once Eglot
;; is loaded, so visiting a file loads neither Eglot nor the EIEIO it needs;
;; only Eglot's public API is used.

;;; Code:

(require 'eglot)
(require 'dsls)

(defclass dsls-eglot-server (eglot-lsp-server) ()
  :documentation "A dsls process managed by Eglot.")

(cl-defmethod eglot-initialization-options ((_server dsls-eglot-server))
  (dsls-settings))

(cl-defmethod eglot-handle-request
  ((_server dsls-eglot-server) (_method (eql workspace/configuration)) &key items)
  (apply #'vector
         (mapcar (lambda (item) (dsls--configuration-answer (plist-get item :section)))
                 items)))

(defun dsls-eglot-contact (&optional _interactive)
  "Eglot contact: the server class and the command line."
  (cons 'dsls-eglot-server (dsls--command)))

;; One entry per mode: Eglot sends one languageId per server.  Pushed to the
;; front so they win over the js-mode entry that dsls-config-mode derives from.
(add-to-list 'eglot-server-programs '((dsls-log-mode :language-id "log") . dsls-eglot-contact))
(add-to-list 'eglot-server-programs '((dsls-config-mode :language-id "json") . dsls-eglot-contact))

(provide 'dsls-eglot)

;;; dsls-eglot.el ends here
