;;; dsls.el --- DeepSpeed config and log diagnostics via the dsls language server -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (jsonrpc "1.0.9"))
;; Keywords: languages, tools

;;; Commentary:

;; Connects Emacs to dsls, the language server for DeepSpeed `ds_config' JSON
;; files and multi-rank training logs.
;;
;; - `dsls-config-mode' (derived from `js-mode') is chosen for DeepSpeed configs:
;;   files whose names match `dsls-builtin-config-globs' or `dsls-config-globs', and, when
;;   `dsls-detect-by-content' is non-nil, other .json files with top-level
;;   DeepSpeed keys such as "zero_optimization".
;; - `dsls-log-mode' is chosen for training logs (`dsls-log-file-regexp', and
;;   .txt files that look like DeepSpeed or PyTorch distributed output).
;; - Eglot: both modes are registered in `eglot-server-programs', so
;;   `eglot-ensure' in their hooks starts dsls.  Diagnostics arrive in Flymake,
;;   hovers in ElDoc, quick fixes through `eglot-code-actions'.
;; - lsp-mode: a client with server id `dsls' (dsls-lsp-mode.el) is registered
;;   when lsp-mode is loaded; this file does not require lsp-mode.
;; - `dsls-diagnose-region' sends selected log lines (from any buffer, a shell
;;   or terminal included) to the server and shows the report.
;;
;; Settings are defcustoms; change them with `customize' or `setopt' so running
;; servers are told, or call `dsls-apply-settings' after `setq'.
;;
;;   (require 'dsls)
;;   (add-hook 'dsls-config-mode-hook #'eglot-ensure)
;;   (add-hook 'dsls-log-mode-hook #'eglot-ensure)

;;; Code:

(require 'cl-lib)
(require 'js)
(require 'seq)
(require 'subr-x)

;; jsonrpc (and the EIEIO it loads) is needed once a server is talked to, not to
;; visit a file: the commands that talk load it, which keeps opening files cheap.
(declare-function jsonrpc-running-p "jsonrpc")
(declare-function jsonrpc-notify "jsonrpc")
(declare-function jsonrpc-request "jsonrpc")
(declare-function object-of-class-p "eieio")
(declare-function find-class "eieio-core")
(declare-function make-instance "eieio")

(defgroup dsls nil
  "DeepSpeed config and log diagnostics (dsls language server)."
  :group 'tools
  :prefix "dsls-")

(defun dsls--set-and-apply (symbol value)
  "Set SYMBOL to VALUE and send the new settings to running servers."
  (set-default symbol value)
  (dsls-apply-settings))

(defcustom dsls-program "dsls"
  "The dsls executable: a name looked up in `exec-path', or a file name."
  :type 'string)

(defcustom dsls-program-args '("--stdio")
  "Arguments given to `dsls-program'."
  :type '(repeat string))

;; The server's settings (dsls-deepspeed-version, dsls-rules, ...): one defcustom
;; each, written from the server's settings table.
(require 'dsls-settings)

(defcustom dsls-detect-by-content t
  "Non-nil means .json files whose head names a DeepSpeed key are sent to dsls too.
The key names come from `dsls schema'; the server then decides whether the file
is a ds_config."
  :type 'boolean)

(defcustom dsls-log-file-regexp "\\.log\\'"
  "Files whose names match this regexp open in `dsls-log-mode'.
nil leaves .log files alone.  Text files (.txt) that look like training
output open in `dsls-log-mode' regardless."
  :type '(choice (const :tag "None" nil) regexp))

;;;; Settings sent to the server

(defun dsls--alist-object (alist)
  "ALIST of (KEY . VALUE), such as rule levels, as a JSON object.
A hash table, so that an empty one encodes as {}."
  (let ((table (make-hash-table :test #'equal)))
    (dolist (entry alist)
      (when (consp entry)
        (puthash (format "%s" (car entry)) (cdr entry) table)))
    table))

(defun dsls--setting-json (type value)
  "VALUE of a setting of TYPE as the JSON value the server reads; nil when unset.
Values go as the user wrote them: the server checks them and says what is wrong."
  (cond ((null value) nil)
        ((equal value "") nil)
        ((memq type '(rule-levels glob-launchers)) (dsls--alist-object value))
        ((memq type '(code-list glob-list)) (vconcat value))
        (t value)))

(defun dsls-settings ()
  "The settings object of the server contract, without unset keys."
  (let ((settings (make-hash-table :test #'equal)))
    (pcase-dolist (`(,key ,variable ,type) dsls-setting-variables)
      (when-let ((value (dsls--setting-json type (symbol-value variable))))
        (puthash key value settings)))
    settings))

(defun dsls--configuration-answer (section)
  "The value of workspace/configuration SECTION (\"dsls\" or \"dsls.KEY\")."
  (cond ((equal section "dsls") (dsls-settings))
        ((and (stringp section) (string-prefix-p "dsls." section))
         (gethash (substring section 5) (dsls-settings)))
        (t nil)))

(defun dsls--command ()
  "The command line that starts dsls."
  (cons dsls-program dsls-program-args))

;;;; File detection and modes

(defvar dsls--top-level-keys 'unknown
  "Top-level ds_config key names, read once from `dsls schema'.
They are the server's catalog.  The symbol `unknown' until first needed;
nil when dsls could not be run.")

(defun dsls--top-level-keys ()
  "The top-level key names of the ds_config schema that dsls prints."
  (when (eq dsls--top-level-keys 'unknown)
    (setq dsls--top-level-keys
          (condition-case nil
              (with-temp-buffer
                (when (eql 0 (call-process dsls-program nil '(t nil) nil "schema"))
                  (goto-char (point-min))
                  (let ((properties (gethash "properties" (json-parse-buffer :object-type 'hash-table)))
                        keys)
                    (maphash (lambda (key _) (push key keys)) properties)
                    keys)))
            (error nil))))
  dsls--top-level-keys)

(defun dsls--glob-match-p (glob file)
  "Non-nil if GLOB matches FILE (its name, or its path when GLOB has a slash)."
  (let ((subject (if (string-match-p "/" glob) file (file-name-nondirectory file))))
    (string-match-p (wildcard-to-regexp (if (string-match-p "/" glob)
                                            (concat "*" (string-remove-prefix "**" glob))
                                          glob))
                    subject)))

(defconst dsls--detection-bytes 65536
  "How much of a file's head the package reads to decide before attaching.")

(defun dsls--head-names-deepspeed-key-p ()
  "Non-nil if the first 64 KiB of the buffer have a DeepSpeed top-level key.
The name must stand as a JSON key.  A cheap look at the head, not a parse: the
server decides with its own rule and publishes nothing for a JSON file that is
no ds_config."
  (let ((keys (dsls--top-level-keys)))
    (and keys
         (save-excursion
           (save-restriction
             (widen)
             (goto-char (point-min))
             (re-search-forward (concat "\"" (regexp-opt keys) "\"[ \t\n]*:")
                                (min (point-max) (1+ dsls--detection-bytes)) t))))))

(defun dsls-config-file-p ()
  "Non-nil if the current buffer visits a DeepSpeed config file."
  (when-let ((file buffer-file-name))
    (and (string-match-p "\\.json\\'" file)
         (or (cl-some (lambda (glob) (dsls--glob-match-p glob file))
                      (append dsls-builtin-config-globs dsls-config-globs))
             (and dsls-detect-by-content (dsls--head-names-deepspeed-key-p))))))

(defconst dsls--log-markers
  (regexp-opt '("[rank" "[Rank " "torch.distributed" "NCCL INFO" "ProcessGroupNCCL"))
  "Text that marks a .txt file as training output (the server decides for sure).")

(defun dsls-log-file-p ()
  "Non-nil if the current buffer visits a training log."
  (when-let ((file buffer-file-name))
    (or (and dsls-log-file-regexp (string-match-p dsls-log-file-regexp file))
        (and (string-match-p "\\.txt\\'" file)
             ;; A dependency list names deepspeed and torch but is no log.
             (not (string-match-p "\\`\\(?:requirements\\|constraints\\)" (file-name-nondirectory file)))
             (save-excursion
               (goto-char (point-min))
               (re-search-forward dsls--log-markers (min (point-max) 65536) t))))))

;;;###autoload
(define-derived-mode dsls-config-mode js-mode "DS-Config"
  "Major mode for DeepSpeed ds_config JSON files, served by dsls."
  (setq-local js-indent-level (if (boundp 'js-indent-level) js-indent-level 2)))

(defvar dsls-log-mode-font-lock-keywords
  '(("^\\(?:[^ \n]+: \\)?\\(\\[[Rr]ank ?-?[0-9]+\\]:?\\)" 1 font-lock-constant-face)
    ("\\_<\\(?:Traceback\\|[A-Za-z.]*\\(?:Error\\|Exception\\)\\)\\_>" . font-lock-warning-face)
    ("\\[\\(?:ERROR\\|E[0-9]\\{4\\}\\)" . font-lock-warning-face))
  "Highlighting for `dsls-log-mode'.")

;;;###autoload
(define-derived-mode dsls-log-mode fundamental-mode "DS-Log"
  "Major mode for DeepSpeed / PyTorch distributed training logs, served by dsls."
  (setq-local font-lock-defaults '(dsls-log-mode-font-lock-keywords t)))

;;;###autoload
(add-to-list 'magic-mode-alist '(dsls-config-file-p . dsls-config-mode))
;;;###autoload
(add-to-list 'magic-mode-alist '(dsls-log-file-p . dsls-log-mode))

;;;; Eglot

;; The Eglot server class lives in dsls-eglot.el, loaded once Eglot is (see the
;; end of this file): defining it needs EIEIO, which visiting a file does not.
(declare-function eglot-current-server "eglot")

(defun dsls--eglot-server-p (object)
  "Non-nil if OBJECT is a dsls server managed by Eglot."
  (and (find-class 'dsls-eglot-server nil)
       (object-of-class-p object 'dsls-eglot-server)))

(defun dsls--eglot-servers ()
  "Running Eglot servers that are dsls, found through the buffers they manage."
  (when (fboundp 'eglot-current-server)
    (let (servers)
      (dolist (buffer (buffer-list))
        (with-current-buffer buffer
          (let ((server (eglot-current-server)))
            (when (and server (dsls--eglot-server-p server) (jsonrpc-running-p server))
              (cl-pushnew server servers)))))
      servers)))

;;;; lsp-mode

;; The lsp-mode client lives in dsls-lsp-mode.el, loaded once lsp-mode is (see
;; the end of this file), so this file neither requires lsp-mode nor needs it
;; to compile.
(declare-function dsls-lsp-mode-apply-settings "dsls-lsp-mode")

;;;; Settings changes

(defvar dsls--connection nil
  "Connection of `dsls-diagnose-region' when no Eglot server is running.")

(defun dsls-apply-settings ()
  "Send the current settings to every running dsls server."
  (interactive)
  (require 'jsonrpc)
  (let ((params (list :settings (list :dsls (dsls-settings)))))
    (dolist (server (dsls--eglot-servers))
      (jsonrpc-notify server :workspace/didChangeConfiguration params))
    (when (fboundp 'dsls-lsp-mode-apply-settings)
      (dsls-lsp-mode-apply-settings))
    (when (and dsls--connection (jsonrpc-running-p dsls--connection))
      (jsonrpc-notify dsls--connection :workspace/didChangeConfiguration params))))

;;;; Diagnosing log text

(defun dsls--private-connection ()
  "A dsls connection owned by this package, started on first use."
  (require 'jsonrpc)
  (unless (and dsls--connection (jsonrpc-running-p dsls--connection))
    (let* ((command (dsls--command))
           (program (or (executable-find (car command)) (car command)))
           (process (make-process :name "dsls"
                                  :command (cons program (cdr command))
                                  :connection-type 'pipe
                                  :coding 'utf-8-emacs-unix
                                  :noquery t
                                  :stderr (get-buffer-create " *dsls stderr*")))
           (connection (make-instance
                        'jsonrpc-process-connection
                        :name "dsls"
                        :process process
                        :events-buffer-scrollback-size 2000
                        :request-dispatcher #'dsls--handle-request
                        :notification-dispatcher #'ignore)))
      (jsonrpc-request connection :initialize
                       (list :processId (emacs-pid)
                             :rootUri nil
                             :clientInfo (list :name "dsls.el")
                             :capabilities (list :workspace (list :configuration t))
                             :initializationOptions (dsls-settings)))
      (jsonrpc-notify connection :initialized (make-hash-table))
      (setq dsls--connection connection)))
  dsls--connection)

(defun dsls--handle-request (_connection method params)
  "Answer server requests METHOD with PARAMS on the private connection."
  (pcase method
    ('workspace/configuration
     (apply #'vector (mapcar (lambda (item) (dsls--configuration-answer (plist-get item :section)))
                             (plist-get params :items))))
    (_ nil)))

(defun dsls--command-connection ()
  "The connection to send commands on: the buffer's Eglot server, any
running dsls Eglot server, or the private connection."
  (or (let ((current (and (fboundp 'eglot-current-server) (eglot-current-server))))
        (and current (dsls--eglot-server-p current) current))
      (car (dsls--eglot-servers))
      (dsls--private-connection)))

(defun dsls--clean-text (text)
  "TEXT without the padding that terminals leave at line ends."
  (replace-regexp-in-string "[ \t]+$" "" text))

(defun dsls-diagnose-text (text)
  "Run the server's dsls.diagnoseText on TEXT; return the result as a plist."
  (require 'jsonrpc)
  (jsonrpc-request (dsls--command-connection) :workspace/executeCommand
                   (list :command "dsls.diagnoseText"
                         :arguments (vector (list :text text)))
                   :timeout 30))

;;;###autoload
(defun dsls-diagnose-region (beg end)
  "Diagnose the log lines between BEG and END and show the report.
Works in any buffer: a log file, a shell, compilation or terminal buffer."
  (interactive (if (use-region-p)
                   (list (region-beginning) (region-end))
                 (list (point-min) (point-max))))
  (let ((text (dsls--clean-text (buffer-substring-no-properties beg end))))
    (when (string-blank-p text)
      (user-error "Nothing to diagnose"))
    ;; Blank lines before the selection keep the report's line numbers those of the buffer.
    (dsls-show-report (dsls-diagnose-text (concat (make-string (1- (line-number-at-pos beg t)) ?\n) text)))))

;;;; Report buffer

(defconst dsls--svg-data-uri-regexp
  "!\\[[^]\n]*\\](\\(data:image/svg\\+xml[^)]*\\))"
  "A markdown image whose source is an SVG data: URI.")

(defun dsls--svg-from-data-uri (uri)
  "The SVG text of data: URI, or nil."
  (when (string-match "\\`data:image/svg\\+xml\\([^,]*\\),\\(\\(?:.\\|\n\\)*\\)\\'" uri)
    (let ((meta (match-string 1 uri))
          (payload (match-string 2 uri)))
      (if (string-match-p ";base64" meta)
          (decode-coding-string (base64-decode-string payload) 'utf-8)
        (decode-coding-string (url-unhex-string payload) 'utf-8)))))

(declare-function url-unhex-string "url-util")
(autoload 'url-unhex-string "url-util")

(defun dsls--render-findings (findings)
  "Plain markdown for FINDINGS, for a server answer without markdown."
  (if (seq-empty-p findings)
      "No known DeepSpeed failure pattern was found in the selected text.\n"
    (mapconcat
     (lambda (f)
       (let ((rank (plist-get f :initiatingRank))
             (collateral (append (plist-get f :collateralRanks) nil)))
         (concat
          (format "## %s\n\nRule: `%s`\n\n" (plist-get f :title) (plist-get f :id))
          (format "Initiating %s%s.\n"
                  (if (numberp rank) (format "rank %d" rank) "rank unknown")
                  (if collateral
                      (format "; collateral ranks %s" (mapconcat #'number-to-string collateral ", "))
                    ""))
          (when-let ((evidence (append (plist-get f :evidence) nil)))
            (concat "\n```text\n"
                    (mapconcat (lambda (e) (format "line %s: %s" (plist-get e :line) (plist-get e :text)))
                               evidence "\n")
                    "\n```\n"))
          (when-let ((fix (plist-get f :fix))) (format "\n**Fix:** %s\n" fix))
          (when-let ((verify (plist-get f :verify))) (format "\n**Verify:** %s\n" verify)))))
     findings "\n")))

(defun dsls--config-keys (findings)
  "Config keys named by FINDINGS, each once."
  (let (keys)
    (seq-doseq (f findings)
      (seq-doseq (k (or (plist-get f :configKeys) []))
        (when (stringp k) (cl-pushnew k keys :test #'equal))))
    (nreverse keys)))

(defun dsls--insert-timeline (svg)
  "Insert SVG as an image where Emacs can show one.
Elsewhere save it to a file and insert the file name."
  (if (and (display-images-p) (image-type-available-p 'svg))
      (insert-image (create-image svg 'svg t) "[rank timeline]")
    (let ((file (make-temp-file "dsls-timeline-" nil ".svg" svg)))
      (insert (format "[rank timeline: %s]" file))
      (setq-local dsls--timeline-file file))))

(defvar-local dsls--timeline-file nil
  "File the report's rank timeline was saved to, on displays without images.")

(defun dsls-show-report (result)
  "Show RESULT of dsls.diagnoseText in the *dsls diagnosis* buffer; return it."
  (let* ((findings (or (plist-get result :findings) []))
         (markdown (plist-get result :markdown))
         (body (if (and (stringp markdown) (not (string-blank-p markdown)))
                   markdown
                 (dsls--render-findings findings)))
         (buffer (get-buffer-create "*dsls diagnosis*")))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (if (fboundp 'markdown-mode) (markdown-mode) (text-mode))
        (insert body)
        ;; Replace each SVG (data: image or inline <svg>) with something Emacs can show.
        (goto-char (point-min))
        (while (re-search-forward dsls--svg-data-uri-regexp nil t)
          (let ((uri (match-string 1)))
            (replace-match "")
            (when-let ((svg (dsls--svg-from-data-uri uri)))
              (dsls--insert-timeline svg))))
        (goto-char (point-min))
        (while (re-search-forward "<svg\\(?:.\\|\n\\)*?</svg>" nil t)
          (let ((svg (match-string 0)))
            (replace-match "")
            (dsls--insert-timeline svg)))
        (when-let ((keys (dsls--config-keys findings)))
          (goto-char (point-max))
          (insert "\n\n## Related ds_config keys\n\n")
          (dolist (key keys)
            (insert "- ")
            (insert-text-button key 'action (lambda (_) (dsls-visit-config-key key))
                                'help-echo "Go to this key in an open ds_config")
            (insert "\n")))
        (goto-char (point-min))
        (setq buffer-read-only t)))
    (display-buffer buffer)
    buffer))

(defun dsls-visit-config-key (key)
  "Go to KEY in an open ds_config buffer.
KEY is a dotted path such as zero_optimization.overlap_comm."
  (interactive "sds_config key: ")
  (let ((parts (split-string key "\\." t))
        found)
    (dolist (buffer (buffer-list))
      (unless found
        (with-current-buffer buffer
          (when (derived-mode-p 'dsls-config-mode)
            (save-excursion
              (goto-char (point-min))
              (when (cl-every (lambda (part)
                                (re-search-forward (concat "\"" (regexp-quote part) "\"[ \t\n]*:") nil t))
                              parts)
                (setq found (cons buffer (match-beginning 0)))))))))
    (if (not found)
        (message "No open ds_config defines %s" key)
      (pop-to-buffer (car found))
      (goto-char (1+ (cdr found)))
      t)))

(provide 'dsls)

;; After `provide', so that dsls-lsp-mode.el and dsls-eglot.el find this feature loaded.
(with-eval-after-load 'lsp-mode
  (require 'dsls-lsp-mode))
(with-eval-after-load 'eglot
  (require 'dsls-eglot))

;;; dsls.el ends here
