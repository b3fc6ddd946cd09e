;;; byte-compile.el --- The Emacs package compiles without a warning -*- lexical-binding: t; -*-

;; Run by run-emacs.sh byte-compile.  dsls.el is compiled first, in an Emacs
;; that has loaded neither Eglot nor lsp-mode (it must need neither), then
;; dsls-lsp-mode.el and dsls-eglot.el, which require lsp-mode and Eglot (each
;; skipped when its client is not installed).  Any warning fails, and so does a name that is internal to
;; Eglot, lsp-mode or jsonrpc ("--" names).  The .elc files go to DSLS_WORK.

;;; Code:

(require 'bytecomp)
(require 'cl-lib)

(let* ((source (file-name-as-directory (getenv "DSLS_EMACS_PACKAGE")))
       (out (file-name-as-directory (getenv "DSLS_WORK")))
       (byte-compile-error-on-warn t)
       (byte-compile-dest-file-function
        (lambda (file) (concat out (file-name-nondirectory file) "c")))
       (failed nil))
  (dolist (name '("dsls-settings.el" "dsls.el" "dsls-lsp-mode.el" "dsls-eglot.el"))
    (cond
     ((and (equal name "dsls-lsp-mode.el") (not (locate-library "lsp-mode")))
      (princ (format "skipped %s: lsp-mode is not installed\n" name)))
     ((and (equal name "dsls-eglot.el") (not (locate-library "eglot")))
      (princ (format "skipped %s: Eglot is not installed\n" name)))
     ((progn
        (when (member name '("dsls-settings.el" "dsls.el"))
          (dolist (feature '(eglot lsp-mode))
            (when (featurep feature) (error "%s is loaded before dsls.el is compiled" feature))))
        (byte-compile-file (concat source name)))
      (princ (format "ok     %s compiles without a warning\n" name)))
     (t
      (setq failed t)
      (princ (format "FAILED %s: see the compiler output above\n" name)))))
  ;; Only the public API of Eglot, lsp-mode and jsonrpc: their "--" names are internal.
  (dolist (name '("dsls-settings.el" "dsls.el" "dsls-lsp-mode.el" "dsls-eglot.el"))
    (with-temp-buffer
      (insert-file-contents (concat source name))
      (let (internal)
        (while (re-search-forward "\\_<\\(?:eglot\\|lsp\\|jsonrpc\\)--[^ \t\n()']*" nil t)
          (cl-pushnew (match-string 0) internal :test #'equal))
        (if (null internal)
            (princ (format "ok     %s uses no internal Eglot, lsp-mode or jsonrpc name\n" name))
          (setq failed t)
          (princ (format "FAILED %s uses internal names: %s\n" name
                         (mapconcat #'identity (nreverse internal) ", ")))))))
  (kill-emacs (if failed 1 0)))

;;; byte-compile.el ends here
