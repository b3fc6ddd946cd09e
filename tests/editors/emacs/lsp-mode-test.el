;;; lsp-mode-test.el --- Emacs --batch session against dsls through lsp-mode -*- lexical-binding: t; -*-

;; Run by run-emacs.sh when lsp-mode is installed (Debian elpa-lsp-mode).
;; Checks that dsls.el registers a client lsp-mode picks for ds_config
;; buffers, that the race diagnostic arrives, that settings reach the server
;; through workspace/configuration, that the preferred quick fix applies, and
;; that a training log in the same workspace gets its findings.
;; Diagnostics (with related information), code actions and edits are compared
;; whole.  Prints one line per check and "N passed, M failed".

;;; Code:

(require 'cl-lib)
(require 'lsp-mode)
(require 'dsls)
(require 'dsls-test-lib)

(defun dsls-test-diags ()
  (gethash (lsp--fix-path-casing buffer-file-name) (lsp-diagnostics t)))

(defun dsls-test-lsp-range (range)
  (let ((start (gethash "start" range)) (end (gethash "end" range)))
    (list (gethash "line" start) (gethash "character" start) (gethash "line" end) (gethash "character" end))))

(defun dsls-test-shape (diag)
  "The fields of DIAG, as lsp-mode keeps it, that are compared."
  (list (gethash "code" diag) (gethash "source" diag) (gethash "severity" diag)
        (dsls-test-lsp-range (gethash "range" diag))
        (mapcar (lambda (r)
                  (let ((location (gethash "location" r)))
                    (list (gethash "uri" location) (dsls-test-lsp-range (gethash "range" location))
                          (gethash "message" r))))
                (gethash "relatedInformation" diag))))

(defun dsls-test-expected (&optional severity)
  "What dsls reports for the fixture config: the race on the overlap_comm key."
  (list (list "overlap-comm-race" "dsls" (or severity 2) (dsls-test-text-range "\"overlap_comm\"")
              (list (list (lsp--path-to-uri buffer-file-name) (dsls-test-text-range "\"contiguous_gradients\"")
                          "contiguous_gradients = true (set in this file)")))))

(defun dsls-test-expected-log (config-buffer)
  "What dsls reports for the fixture log while CONFIG-BUFFER is open in the same workspace."
  (let* ((oom (save-excursion (goto-char (point-min)) (search-forward "torch.OutOfMemoryError")
                              (1- (line-number-at-pos))))
         (uri (lsp--path-to-uri buffer-file-name))
         (collateral (list (list uri (dsls-test-line-range oom)
                                 (format "initiating failure: GPU out of memory (%s:%d)" uri (1+ oom)))))
         (config-key (lambda (key name)
                       (with-current-buffer config-buffer
                         (list (lsp--path-to-uri buffer-file-name) (dsls-test-text-range (format "\"%s\"" key))
                               (format "config key %s in this run's ds_config" name)))))
         (expected (list (list "log-cuda-oom" "dsls" 1 (dsls-test-line-range oom)
                               (list (funcall config-key "stage" "zero_optimization.stage")
                                     (funcall config-key "train_micro_batch_size_per_gpu"
                                              "train_micro_batch_size_per_gpu"))))))
    (save-excursion
      (goto-char (point-min))
      (while (re-search-forward "Watchdog caught collective operation timeout\\|exits with return code" nil t)
        (push (list (if (string-prefix-p "W" (match-string 0)) "log-nccl-watchdog-timeout" "log-worker-exit")
                    "dsls" 3 (dsls-test-line-range (1- (line-number-at-pos))) collateral)
              expected)))
    (nreverse expected)))

(defun dsls-test-diagnostics-become (name expected)
  "Wait until the buffer's diagnostics are EXPECTED; check NAME, showing the last ones."
  (let ((shapes (lambda () (mapcar #'dsls-test-shape (dsls-test-diags)))))
    (dsls-test-check name (dsls-test-wait (lambda () (equal (funcall shapes) expected)))
                     (format "got %S, want %S" (funcall shapes) expected))))

(defun dsls-test-action-shape (action)
  "The title, kind, preference and edits of code ACTION."
  (let ((change (aref (gethash "documentChanges" (gethash "edit" action)) 0)))
    (list (gethash "title" action) (gethash "kind" action) (eq (gethash "isPreferred" action) t)
          (gethash "uri" (gethash "textDocument" change))
          (mapcar (lambda (e) (list (dsls-test-lsp-range (gethash "range" e)) (gethash "newText" e)))
                  (gethash "edits" change)))))

(let* ((work (file-name-as-directory (getenv "DSLS_WORK")))
       (config-file (concat work "lsp/ds_config.json"))
       (log-file (concat work "lsp/train.log")))
  (make-directory (concat work "lsp") t)
  (copy-file (concat (getenv "DSLS_FIXTURES") "/ds_config_zero2_race.json") config-file t)
  (copy-file (concat (getenv "DSLS_FIXTURES") "/oom_then_timeouts.log") log-file t)
  (setq dsls-program (getenv "DSLS_BINARY")
        ;; A release with the race: the race fix is safe there, so fix-all offers it.
        dsls-deepspeed-version "0.14.2"
        lsp-session-file (concat work "lsp-session")
        lsp-enable-file-watchers nil
        lsp-enable-snippet nil
        lsp-restart 'ignore
        ;; Batch Emacs has no mode line or header line, and their libraries are not loaded.
        lsp-headerline-breadcrumb-enable nil
        lsp-modeline-code-actions-enable nil
        lsp-modeline-diagnostics-enable nil
        lsp-modeline-workspace-status-enable nil)
  (condition-case err
      (progn
        (find-file config-file)
        (lsp-workspace-folders-add (concat work "lsp"))
        (dsls-test-check "lsp-mode picks the dsls client for a ds_config buffer"
                         (equal (mapcar #'lsp--client-server-id (lsp--find-clients)) '(dsls))
                         (format "%S" (mapcar #'lsp--client-server-id (lsp--find-clients))))
        (lsp)
        (dsls-test-check "the dsls workspace starts" (dsls-test-wait #'lsp-workspaces))
        (dsls-test-diagnostics-become "exactly the overlap-comm-race diagnostic arrives, with its related information"
                                      (dsls-test-expected))
        (customize-set-variable 'dsls-rules '(("overlap-comm-race" . "error")))
        (dsls-test-diagnostics-become "dsls-rules reaches the server (race reported as an error)" (dsls-test-expected 1))
        (customize-set-variable 'dsls-rules nil)
        (dsls-test-diagnostics-become "default rules bring the warning back" (dsls-test-expected))
        (goto-char (point-min))
        (search-forward "\"overlap_comm\"")
        (let* ((actions (lsp-code-actions-at-point))
               (preferred (cl-find-if (lambda (a) (eq (gethash "isPreferred" a) t)) actions))
               (expected-actions (dsls-test-expected-actions (lsp--path-to-uri buffer-file-name)))
               (expected-text (dsls-test-text-after-fix)))
          (dsls-test-check "the code actions are exactly the two fixes and fix-all, with their edits"
                           (equal (mapcar #'dsls-test-action-shape actions) expected-actions)
                           (format "got %S, want %S" (mapcar #'dsls-test-action-shape actions) expected-actions))
          (dsls-test-check "the preferred code action is 'Set overlap_comm to false'"
                           (and preferred (equal (gethash "title" preferred) "Set overlap_comm to false"))
                           (format "%S" (mapcar (lambda (a) (gethash "title" a)) actions)))
          (when preferred (lsp-execute-code-action preferred))
          (dsls-test-check "applying it changes only the overlap_comm value"
                           (equal (buffer-string) expected-text) (buffer-string)))
        (dsls-test-diagnostics-become "no diagnostics are left" nil)
        (let ((config-buffer (current-buffer)))
          (find-file log-file)
          (dsls-test-check "train.log opens in dsls-log-mode" (eq major-mode 'dsls-log-mode) (format "%s" major-mode))
          (lsp)
          (dsls-test-check "the log joins the dsls workspace"
                           (equal (mapcar (lambda (w) (lsp--client-server-id (lsp--workspace-client w))) (lsp-workspaces))
                                  '(dsls)))
          (dsls-test-diagnostics-become "the log findings arrive, linked to the config"
                                        (dsls-test-expected-log config-buffer))))
    (error (dsls-test-check "lsp-mode session" nil (format "error: %S" err)))))

(dsls-test-finish)

;;; lsp-mode-test.el ends here
