;;; lsp-mode-test.el --- Emacs --batch session against dsls through lsp-mode -*- lexical-binding: t; -*-

;; Run by run-emacs.sh when lsp-mode is installed (Debian elpa-lsp-mode).
;; Checks that dsls.el registers a client lsp-mode picks for ds_config
;; buffers, that the race diagnostic arrives, that settings reach the server
;; through workspace/configuration, and that the preferred quick fix applies.
;; Prints one line per check and "N passed, M failed".

;;; Code:

(require 'cl-lib)
(require 'lsp-mode)
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

(defun dsls-test-wait (predicate &optional seconds)
  (let ((deadline (+ (float-time) (or seconds 15))) result)
    (while (and (not (setq result (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    result))

(defun dsls-test-race-diags ()
  (cl-remove-if-not (lambda (d) (equal (gethash "code" d) "overlap-comm-race"))
                    (gethash (lsp--fix-path-casing buffer-file-name) (lsp-diagnostics t))))

(let* ((work (file-name-as-directory (getenv "DSLS_WORK")))
       (config-file (concat work "lsp/ds_config.json")))
  (make-directory (concat work "lsp") t)
  (copy-file (concat (getenv "DSLS_FIXTURES") "/ds_config_zero2_race.json") config-file t)
  (setq dsls-program (getenv "DSLS_BINARY")
        lsp-session-file (concat work "lsp-session")
        lsp-enable-file-watchers nil
        lsp-enable-snippet nil
        lsp-restart 'ignore)
  (condition-case err
      (progn
        (find-file config-file)
        (lsp-workspace-folders-add (concat work "lsp"))
        (dsls-test-check "lsp-mode picks the dsls client for a ds_config buffer"
                         (equal (mapcar #'lsp--client-server-id (lsp--find-clients)) '(dsls))
                         (format "%S" (mapcar #'lsp--client-server-id (lsp--find-clients))))
        (lsp)
        (dsls-test-check "the dsls workspace starts" (dsls-test-wait #'lsp-workspaces))
        (dsls-test-check "the overlap-comm-race diagnostic arrives" (dsls-test-wait #'dsls-test-race-diags))
        (customize-set-variable 'dsls-rules '(("overlap-comm-race" . "error")))
        (dsls-test-check "dsls-rules reaches the server (race reported as an error)"
                         (dsls-test-wait (lambda () (cl-some (lambda (d) (eql (gethash "severity" d) 1))
                                                             (dsls-test-race-diags)))))
        (customize-set-variable 'dsls-rules nil)
        (goto-char (point-min))
        (search-forward "\"overlap_comm\"")
        (let* ((actions (lsp-code-actions-at-point))
               (preferred (cl-find-if (lambda (a) (eq (gethash "isPreferred" a) t)) actions)))
          (dsls-test-check "the preferred code action is 'Set overlap_comm to false'"
                           (and preferred (equal (gethash "title" preferred) "Set overlap_comm to false"))
                           (format "%S" (mapcar (lambda (a) (gethash "title" a)) actions)))
          (when preferred (lsp-execute-code-action preferred)))
        (dsls-test-check "applying it sets overlap_comm to false"
                         (save-excursion (goto-char (point-min))
                                         (re-search-forward "\"overlap_comm\"[ \t]*:[ \t]*false" nil t)))
        (dsls-test-check "the diagnostic goes away" (dsls-test-wait (lambda () (null (dsls-test-race-diags))))))
    (error (dsls-test-check "lsp-mode session" nil (format "error: %S" err)))))

(dsls-test-out "%d passed, %d failed" dsls-test-passed dsls-test-failed)
(kill-emacs (if (= dsls-test-failed 0) 0 1))

;;; lsp-mode-test.el ends here
