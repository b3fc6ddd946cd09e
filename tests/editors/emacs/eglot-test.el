;;; eglot-test.el --- Emacs --batch session against dsls through Eglot -*- lexical-binding: t; -*-

;; Run by run-emacs.sh.  Opens a ZeRO-2 config with the overlap_comm race in
;; `dsls-config-mode' under Eglot, checks the Flymake diagnostic, the hover,
;; applies the preferred quick fix through `eglot-code-actions', changes the
;; rule settings, and runs `dsls-diagnose-region' on a log file and on a
;; plain buffer.  Diagnostics (with related information), code actions and
;; edits are compared whole, so a server that drops or moves any of them fails
;; here.  Prints one line per check and "N passed, M failed".

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'flymake)
(require 'dsls)
(require 'dsls-test-lib)

(defun dsls-test-lsp-range (range)
  (let ((start (plist-get range :start)) (end (plist-get range :end)))
    (list (plist-get start :line) (plist-get start :character) (plist-get end :line) (plist-get end :character))))

(defun dsls-test-uri (file)
  (funcall (if (fboundp 'eglot-path-to-uri) 'eglot-path-to-uri 'eglot--path-to-uri) file))

(defun dsls-test-shape (diag)
  "The fields of Flymake DIAG and of the LSP diagnostic Eglot keeps with it that are compared."
  (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data diag)))))
    (list :code (plist-get lsp :code) :source (plist-get lsp :source) :severity (plist-get lsp :severity)
          :type (flymake-diagnostic-type diag)
          :range (dsls-test-lsp-range (plist-get lsp :range))
          :region (dsls-test-range-at (flymake-diagnostic-beg diag) (flymake-diagnostic-end diag))
          ;; Eglot does not advertise relatedInformation, so dsls sends none and puts the
          ;; related notes at the end of the message instead.
          :related (plist-get lsp :relatedInformation)
          :notes (dsls-test-notes (plist-get lsp :message)))))

(defun dsls-test-notes (message)
  "The \"file:line: note\" lines after the last blank line of MESSAGE, or nil."
  (let ((parts (split-string message "\n\n")))
    (when (cdr parts) (split-string (car (last parts)) "\n"))))

(defun dsls-test-shapes ()
  (mapcar #'dsls-test-shape
          (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))

(defun dsls-test-expected (code severity range related)
  "A diagnostic as `dsls-test-shape' gives it; Flymake's region is the LSP RANGE.
RELATED lists (URI RANGE MESSAGE) notes, which reach Eglot folded into the message."
  (list :code code :source "dsls" :severity severity
        :type (pcase severity (1 'eglot-error) (2 'eglot-warning) (_ 'eglot-note))
        :range range :region range :related nil
        :notes (mapcar (lambda (r) (format "%s:%d: %s" (file-name-nondirectory (nth 0 r)) (1+ (car (nth 1 r))) (nth 2 r)))
                       related)))

(defun dsls-test-expected-config (&optional severity)
  "What dsls reports for the fixture config: the race on the overlap_comm key."
  (list (dsls-test-expected "overlap-comm-race" (or severity 2) (dsls-test-text-range "\"overlap_comm\"")
                            (list (list (dsls-test-uri buffer-file-name)
                                        (dsls-test-text-range "\"contiguous_gradients\"")
                                        "contiguous_gradients = true (set in this file)")))))

(defun dsls-test-expected-log ()
  "What dsls reports for the fixture log on a server of its own (no config to link to)."
  (let* ((oom (save-excursion (goto-char (point-min)) (search-forward "torch.OutOfMemoryError")
                              (1- (line-number-at-pos))))
         (uri (dsls-test-uri buffer-file-name))
         (collateral (list (list uri (dsls-test-line-range oom)
                                 (format "initiating failure: GPU out of memory (%s:%d)" uri (1+ oom)))))
         (expected (list (dsls-test-expected "log-cuda-oom" 1 (dsls-test-line-range oom) nil))))
    (save-excursion
      (goto-char (point-min))
      (while (re-search-forward "Watchdog caught collective operation timeout\\|exits with return code" nil t)
        (push (dsls-test-expected (if (string-prefix-p "W" (match-string 0)) "log-nccl-watchdog-timeout" "log-worker-exit")
                                  3 (dsls-test-line-range (1- (line-number-at-pos))) collateral)
              expected)))
    (nreverse expected)))

(defun dsls-test-diagnostics-become (name expected)
  "Wait until the buffer's diagnostics are EXPECTED; check NAME, showing the last ones."
  (dsls-test-check name (dsls-test-wait (lambda () (equal (dsls-test-shapes) expected)))
                   (format "got %S, want %S" (dsls-test-shapes) expected)))

(defun dsls-test-action-shape (action)
  "The title, kind, preference and edits of code ACTION."
  (let ((change (aref (plist-get (plist-get action :edit) :documentChanges) 0)))
    (list (plist-get action :title) (plist-get action :kind) (eq (plist-get action :isPreferred) t)
          (plist-get (plist-get change :textDocument) :uri)
          (mapcar (lambda (e) (list (dsls-test-lsp-range (plist-get e :range)) (plist-get e :newText)))
                  (plist-get change :edits)))))

(defun dsls-test-copy (from to)
  (copy-file from to t)
  to)

(let* ((dsls-binary (getenv "DSLS_BINARY"))
       (work (file-name-as-directory (getenv "DSLS_WORK")))
       (fixtures (file-name-as-directory (getenv "DSLS_FIXTURES")))
       (config-file (dsls-test-copy (concat fixtures "ds_config_zero2_race.json")
                                    (concat work "ds_config.json")))
       (log-file (dsls-test-copy (concat fixtures "oom_then_timeouts.log")
                                 (concat work "train.log")))
       (eglot-sync-connect 10)
       (eglot-connect-timeout 20)
       ;; A server stopped on purpose below must stay stopped.
       (eglot-autoreconnect nil)
       ;; Flymake must accept reports outside idle time (see eglot.el, github#958).
       (flymake-no-changes-timeout 0.1)
       config-buffer)
  (setq dsls-program dsls-binary)
  ;; A release with the race: the race fix is safe there, so fix-all offers it.
  (setq dsls-deepspeed-version "0.14.2")
  (add-hook 'dsls-config-mode-hook #'eglot-ensure)
  (add-hook 'dsls-log-mode-hook #'eglot-ensure)

  (dsls-test-step "open the config"
    (setq config-buffer (find-file config-file))
    (switch-to-buffer config-buffer)
    (dsls-test-check "ds_config.json opens in dsls-config-mode" (eq major-mode 'dsls-config-mode)
                     (format "%s" major-mode))
    (run-hooks 'post-command-hook)        ; where eglot-ensure connects
    (dsls-test-check "Eglot manages the buffer with a dsls server"
                     (dsls-test-wait (lambda () (and (bound-and-true-p eglot--managed-mode)
                                                     (dsls--eglot-server-p (eglot-current-server))))))
    (flymake-start))

  (dsls-test-step "diagnostic"
    (dsls-test-diagnostics-become "Flymake shows exactly the overlap-comm-race diagnostic, with its related information"
                                  (dsls-test-expected-config)))

  (dsls-test-step "hover"
    (goto-char (point-min))
    (search-forward "\"overlap_comm\"")
    (backward-char 4)
    (let (info)
      (eglot-hover-eldoc-function (lambda (text &rest _) (setq info (or text ""))))
      (dsls-test-wait (lambda () info))
      (dsls-test-check "hover (ElDoc) explains the overlap_comm race"
                       (and (stringp info)
                            (string-match-p "overlap_comm" info)
                            (string-match-p "race" (downcase info)))
                       info)))

  (dsls-test-step "quick fix"
    (goto-char (point-min))
    (search-forward "\"overlap_comm\"")
    (let* ((beg (line-beginning-position))
           (end (line-end-position))
           (actions (eglot-code-actions beg end nil nil))
           (expected-actions (dsls-test-expected-actions (dsls-test-uri buffer-file-name)))
           (expected-text (dsls-test-text-after-fix))
           offered-default)
      (dsls-test-check "the code actions are exactly the two fixes and fix-all, with their edits"
                       (equal (mapcar #'dsls-test-action-shape actions) expected-actions)
                       (format "got %S, want %S" (mapcar #'dsls-test-action-shape actions) expected-actions))
      ;; As a user pressing RET at Eglot's prompt: take the default, which
      ;; Eglot sets to the server's preferred action.
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt _collection &optional _pred _req _init _hist def &rest _)
                   (setq offered-default def)
                   def)))
        ;; A keyboard event, so Eglot prompts in the minibuffer, not a menu.
        (let ((last-nonmenu-event ?\r))
          (eglot-code-actions beg end nil t)))
      (dsls-test-check "the preferred action is 'Set overlap_comm to false'"
                       (equal offered-default "Set overlap_comm to false") offered-default)
      (dsls-test-check "applying it changes only the overlap_comm value"
                       (equal (buffer-string) expected-text) (buffer-string))
      (dsls-test-diagnostics-become "no diagnostics are left" nil)))

  (dsls-test-step "settings"
    ;; Back to true, whatever the quick fix did to the value.
    (goto-char (point-min))
    (re-search-forward "\"overlap_comm\"[ \t]*:[ \t]*\\([^,\n]*\\)")
    (replace-match "true" t t nil 1)
    (dsls-test-diagnostics-become "the race comes back after editing overlap_comm to true" (dsls-test-expected-config))
    (customize-set-variable 'dsls-rules '(("overlap-comm-race" . "error")))
    (dsls-test-diagnostics-become "dsls-rules raises the race to an error" (dsls-test-expected-config 1))
    (customize-set-variable 'dsls-rules '(("overlap-comm-race" . "off")))
    (dsls-test-diagnostics-become "dsls-rules \"off\" silences the race" nil)
    (customize-set-variable 'dsls-rules nil)
    (dsls-test-diagnostics-become "default rules bring the warning back" (dsls-test-expected-config))
    ;; On 0.19.0-0.19.2 the race needs torch.compile: dsls-torch-compile and dsls-select reach the server.
    (let ((version dsls-deepspeed-version))
      (customize-set-variable 'dsls-select '("overlap-comm-race"))
      (customize-set-variable 'dsls-deepspeed-version "0.19.1")
      (dsls-test-diagnostics-become "0.19.1 without torch.compile has no race" nil)
      (customize-set-variable 'dsls-torch-compile t)
      (dsls-test-diagnostics-become "dsls-torch-compile shows the race on 0.19.1" (dsls-test-expected-config))
      (customize-set-variable 'dsls-torch-compile nil)
      (customize-set-variable 'dsls-select nil)
      (customize-set-variable 'dsls-deepspeed-version version)
      (dsls-test-diagnostics-become "unset again: the warning of the first release" (dsls-test-expected-config))))

  (dsls-test-step "a JSON file that is no ds_config gets no diagnostics"
    (let* ((project (concat fixtures "../../fixtures/projects/hf_trainer/"))
           (state (dsls-test-copy (concat project "output/checkpoint-500/trainer_state.json")
                                  (concat work "trainer_state.json")))
           (requirements (dsls-test-copy (concat project "requirements.txt") (concat work "requirements.txt")))
           (buffer (find-file state)))
      (switch-to-buffer buffer)
      (run-hooks 'post-command-hook)
      ;; Its head names train_batch_size, so it is sent; the server decides it is no config.
      (dsls-test-check "trainer_state.json is sent to dsls"
                       (dsls-test-wait (lambda () (bound-and-true-p eglot--managed-mode))))
      (flymake-start)
      ;; A request waits for the document's analysis; then nothing may have been reported.
      (jsonrpc-request (eglot-current-server) :textDocument/documentSymbol
                       (list :textDocument (list :uri (dsls-test-uri state))))
      (sit-for 0.5)
      (dsls-test-check "trainer_state.json has no diagnostics" (null (flymake-diagnostics))
                       (format "%S" (flymake-diagnostics)))
      (kill-buffer buffer)
      (let ((req (find-file requirements)))
        (dsls-test-check "requirements.txt does not open in dsls-log-mode" (not (eq major-mode 'dsls-log-mode))
                         (format "%s" major-mode))
        (kill-buffer req))))

  (dsls-test-step "diagnose a log file"
    (let ((log-buffer (find-file log-file)))
      (switch-to-buffer log-buffer)
      (dsls-test-check "train.log opens in dsls-log-mode" (eq major-mode 'dsls-log-mode))
      (run-hooks 'post-command-hook)
      (dsls-test-check "Eglot manages the log with languageId log"
                       (dsls-test-wait (lambda () (and (bound-and-true-p eglot--managed-mode)
                                                       (equal (eglot--language-id (eglot-current-server)) "log")))))
      (flymake-start)
      (dsls-test-diagnostics-become "Flymake shows exactly the log findings" (dsls-test-expected-log))
      (let ((report (dsls-diagnose-region (point-min) (point-max))))
        (with-current-buffer report
          (dsls-test-check "report names rank 3" (string-match-p "[Rr]ank 3" (buffer-string)) (buffer-string))
          (dsls-test-check "the SVG timeline is shown or saved, not left as text"
                           (not (string-match-p "<svg\\|data:image/svg" (buffer-string)))
                           (buffer-string))))))

  (dsls-test-step "Eglot shuts dsls down"
    ;; eglot-shutdown deletes the process right after sending exit (SIGKILL on Emacs 28), so the
    ;; clean exit is checked by sending shutdown and exit through the same connection and waiting.
    (let ((servers (dsls--eglot-servers)))
      (dolist (s servers)
        (when (process-live-p (jsonrpc--process s))
          (setf (eglot--shutdown-requested s) t)
          (dsls-test-check "shutdown (params null) is answered with null"
                           (null (jsonrpc-request s :shutdown nil :timeout 3)))
          (jsonrpc-notify s :exit nil)))
      (dsls-test-wait (lambda () (cl-notany (lambda (s) (process-live-p (jsonrpc--process s))) servers)) 5)
      (dsls-test-check "dsls exits with status 0 after shutdown and exit"
                       (cl-every (lambda (s) (eql (process-exit-status (jsonrpc--process s)) 0)) servers)
                       (format "%S" (mapcar (lambda (s) (process-exit-status (jsonrpc--process s))) servers)))
      ;; Let Eglot forget the (already exited) servers; their processes are gone, so errors are moot.
      (dolist (s servers) (ignore-errors (eglot-shutdown s)))))

  (dsls-test-step "diagnose a region of a plain buffer without Eglot"
    (dolist (server (dsls--eglot-servers)) (jsonrpc-shutdown server))
    (dsls-test-wait (lambda () (null (dsls--eglot-servers))) 10)
    (with-temp-buffer
      ;; Terminal-style padding at line ends must not matter.
      (insert (replace-regexp-in-string
               "\n" "   \n" (with-temp-buffer (insert-file-contents log-file) (buffer-string))))
      (let ((report (dsls-diagnose-region (point-min) (point-max))))
        (with-current-buffer report
          (dsls-test-check "report from the private connection names rank 3"
                           (string-match-p "[Rr]ank 3" (buffer-string)) (buffer-string)))))
    (dsls-test-check "the private connection is running" (jsonrpc-running-p dsls--connection))
    (jsonrpc-shutdown dsls--connection))

  (dsls-test-step "helpers"
    (dsls-test-check "base64 SVG data URIs decode"
                     (equal (dsls--svg-from-data-uri "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=") "<svg></svg>"))
    (dsls-test-check "percent-encoded SVG data URIs decode"
                     (equal (dsls--svg-from-data-uri "data:image/svg+xml;utf8,%3Csvg%3E%3C/svg%3E") "<svg></svg>"))
    (dsls-test-check "unset settings are left out; rules encode as a JSON object"
                     (let ((dsls-rules '(("overlap-comm-race" . "off"))) (dsls-deepspeed-version nil)
                           (dsls-torch-compile :json-false) (dsls-config-globs nil))
                       (equal (json-serialize (dsls-settings) :false-object :json-false)
                              "{\"torchCompile\":false,\"rules\":{\"overlap-comm-race\":\"off\"}}"))
                     (json-serialize (dsls-settings) :false-object :json-false))
    (dsls-test-check "globs match file names in any folder"
                     (and (dsls--glob-match-p "zero*.json" "/a/b/zero3.json")
                          (not (dsls--glob-match-p "zero*.json" "/a/zero/x.json"))))))

(dsls-test-finish)

;;; eglot-test.el ends here
