;;; dsls-test-lib.el --- What the Emacs --batch sessions against dsls share -*- lexical-binding: t; -*-

;; Loaded by eglot-test.el and lsp-mode-test.el (run-emacs.sh puts this folder
;; on the load path): counting and printing checks, waiting for the server,
;; ranges of buffer text in LSP's (START-LINE START-COLUMN END-LINE END-COLUMN)
;; form, and the exit status.

;;; Code:

(require 'cl-lib)

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

;; The fixtures are ASCII, so columns are the same in every position encoding.
(defun dsls-test-range-at (beg end)
  "The range of the region BEG..END."
  (save-excursion
    (list (progn (goto-char beg) (1- (line-number-at-pos))) (- beg (line-beginning-position))
          (progn (goto-char end) (1- (line-number-at-pos))) (- end (line-beginning-position)))))

(defun dsls-test-text-range (needle &optional after)
  "The range of the first NEEDLE in the buffer (after the first AFTER, when given)."
  (save-excursion
    (goto-char (point-min))
    (when after (search-forward after))
    (search-forward needle)
    (dsls-test-range-at (match-beginning 0) (match-end 0))))

(defun dsls-test-line-range (line)
  "The range of the whole of 0-based LINE."
  (save-excursion
    (goto-char (point-min))
    (forward-line line)
    (dsls-test-range-at (line-beginning-position) (line-end-position))))

(defun dsls-test-expected-actions (uri)
  "The code actions at overlap_comm of the fixture config visited as URI.
Each is (TITLE KIND PREFERRED URI EDITS), EDITS a list of (RANGE NEW-TEXT)."
  (let ((fix (lambda (title kind preferred key)
               (list title kind preferred uri (list (list (dsls-test-text-range "true" key) "false"))))))
    (list (funcall fix "Set overlap_comm to false" "quickfix" t "\"overlap_comm\"")
          (funcall fix "Set contiguous_gradients to false (avoids the bucket races, not the allocator race)"
                   "quickfix" nil "\"contiguous_gradients\"")
          (funcall fix "Fix all safe dsls findings" "source.fixAll.dsls" nil "\"overlap_comm\""))))

(defun dsls-test-text-after-fix ()
  "The buffer's text once the preferred fix has set overlap_comm to false."
  (replace-regexp-in-string "\"overlap_comm\": true" "\"overlap_comm\": false" (buffer-string) t t))

(defun dsls-test-finish ()
  "Print the totals and exit: 0 when no check failed."
  (dsls-test-out "%d passed, %d failed" dsls-test-passed dsls-test-failed)
  (kill-emacs (if (= dsls-test-failed 0) 0 1)))

(provide 'dsls-test-lib)
;;; dsls-test-lib.el ends here
