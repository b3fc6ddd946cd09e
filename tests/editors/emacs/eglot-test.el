;;; eglot-test.el --- Emacs --batch session against dsls through Eglot -*- lexical-binding: t; -*-

;; Run by run-emacs.sh.  Opens a ZeRO-2 config with the overlap_comm race in
;; `dsls-config-mode' under Eglot, checks the Flymake diagnostic, the hover,
;; applies the preferred quick fix through `eglot-code-actions', changes the
;; rule settings, and runs `dsls-diagnose-region' on a log file and on a
;; plain buffer.  Prints one line per check and "N passed, M failed".

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'flymake)
(require 'dsls)

(defvar dsls-test-passed 0)
(defvar dsls-test-failed 0)

(defun dsls-test-out (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n") #'external-debugging-output))

(defun dsls-test-check (name ok &optional detail)
  (if ok
      (progn (cl-incf dsls-test-passed) (dsls-test-out "ok     %s" name))
    (cl-incf dsls-test-failed)
    (dsls-test-out "FAILED %s%s" name (if detail (format ": %s" detail) "")))
  ok)

(defmacro dsls-test-step (name &rest body)
  "Run BODY; an error counts as a failed check named NAME."
  (declare (indent 1))
  `(condition-case err
       (progn ,@body)
     (error (dsls-test-check ,name nil (format "error: %S" err)))))

(defun dsls-test-wait (predicate &optional seconds)
  "Process events until PREDICATE holds or SECONDS (default 15) pass."
  (let ((deadline (+ (float-time) (or seconds 15)))
        (result nil))
    (while (and (not (setq result (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05)
      ;; Batch Emacs has no command loop and is never idle: run what the
      ;; command loop would (post-command hooks, idle timers such as Eglot's
      ;; didChange sender and Flymake's checker).
      (run-hooks 'post-command-hook)
      (dsls-test-run-idle-timers))
    result))

(defun dsls-test-run-idle-timers ()
  "Run each pending idle timer once, as if the user had paused."
  (dolist (timer (copy-sequence timer-idle-list))
    (when (memq timer timer-idle-list)
      (cancel-timer timer)
      (condition-case err
          (apply (timer--function timer) (timer--args timer))
        (error (dsls-test-out "idle timer error: %S" err))))))

(defun dsls-test-race-diags ()
  (cl-remove-if-not
   (lambda (d)
     (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
       (equal (plist-get lsp :code) "overlap-comm-race")))
   (flymake-diagnostics)))

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
    (let ((got (dsls-test-wait (lambda () (dsls-test-race-diags)))))
      (dsls-test-check "Flymake shows the overlap-comm-race diagnostic" got
                       (format "%S" (flymake-diagnostics)))
      (when got
        (let* ((diag (car got))
               (lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data diag)))))
          (dsls-test-check "its source is dsls" (equal (plist-get lsp :source) "dsls"))
          (dsls-test-check "it is on the overlap_comm line"
                           (save-excursion
                             (goto-char (point-min))
                             (search-forward "\"overlap_comm\"")
                             (<= (line-number-at-pos (flymake-diagnostic-beg diag))
                                 (line-number-at-pos)
                                 (line-number-at-pos (flymake-diagnostic-end diag)))))))))

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
           (titles (mapcar (lambda (a) (plist-get a :title)) actions))
           offered-default)
      (dsls-test-check "code actions include both fixes"
                       (and (member "Set overlap_comm to false" titles)
                            ;; The second fix may add a note after the contract's title.
                            (cl-some (lambda (title) (string-prefix-p "Set contiguous_gradients to false" title))
                                     titles))
                       (format "%S" titles))
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
      (dsls-test-check "applying it sets overlap_comm to false in the buffer"
                       (save-excursion (goto-char (point-min))
                                       (re-search-forward "\"overlap_comm\"[ \t]*:[ \t]*false" nil t))
                       (buffer-string))
      (dsls-test-check "contiguous_gradients is left alone"
                       (save-excursion (goto-char (point-min))
                                       (re-search-forward "\"contiguous_gradients\"[ \t]*:[ \t]*true" nil t)))
      (dsls-test-check "the diagnostic goes away"
                       (dsls-test-wait (lambda () (null (dsls-test-race-diags))))
                       (format "%S" (flymake-diagnostics)))))

  (dsls-test-step "settings"
    (goto-char (point-min))
    (re-search-forward "\"overlap_comm\"[ \t]*:[ \t]*\\(false\\)")
    (replace-match "true" t t nil 1)
    (dsls-test-check "the race comes back after editing overlap_comm to true"
                     (dsls-test-wait (lambda () (dsls-test-race-diags))))
    (customize-set-variable 'dsls-rules '(("overlap-comm-race" . "error")))
    (dsls-test-check "dsls-rules raises the race to an error"
                     (dsls-test-wait (lambda ()
                                       (cl-some (lambda (d) (eq (flymake-diagnostic-type d) 'eglot-error))
                                                (dsls-test-race-diags))))
                     (format "%S" (mapcar #'flymake-diagnostic-type (dsls-test-race-diags))))
    (customize-set-variable 'dsls-rules '(("overlap-comm-race" . "off")))
    (dsls-test-check "dsls-rules \"off\" silences the race"
                     (dsls-test-wait (lambda () (null (dsls-test-race-diags)))))
    (customize-set-variable 'dsls-rules nil))

  (dsls-test-step "diagnose a log file"
    (let ((log-buffer (find-file log-file)))
      (switch-to-buffer log-buffer)
      (dsls-test-check "train.log opens in dsls-log-mode" (eq major-mode 'dsls-log-mode))
      (run-hooks 'post-command-hook)
      (dsls-test-check "Eglot manages the log with languageId log"
                       (dsls-test-wait (lambda () (and (bound-and-true-p eglot--managed-mode)
                                                       (equal (eglot--language-id (eglot-current-server)) "log")))))
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
    (dsls-test-check "empty rules encode as a JSON object"
                     (let ((dsls-rules nil)) (equal (json-serialize (dsls-settings))
                                                    "{\"rules\":{},\"configGlobs\":[\"*ds_config*.json\",\"*deepspeed*.json\",\"zero*.json\",\"ds_z*.json\"]}")))
    (dsls-test-check "globs match file names in any folder"
                     (and (dsls--glob-match-p "zero*.json" "/a/b/zero3.json")
                          (not (dsls--glob-match-p "zero*.json" "/a/zero/x.json"))))))

(dsls-test-out "%d passed, %d failed" dsls-test-passed dsls-test-failed)
(kill-emacs (if (= dsls-test-failed 0) 0 1))

;;; eglot-test.el ends here
