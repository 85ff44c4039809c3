;;; sourcecheck.el --- sourcecheck-ls for *.sourcecheck.json files, through eglot  -*- lexical-binding: t; -*-

;; Load it from your init file, e.g. (load "~/src/sourcecheck/editors/emacs/sourcecheck.el"),
;; or copy the forms below there.  One file for Emacs 28 and 29+.
;; The server, `sourcecheck-ls', must be on `exec-path' (pip install puts it beside python).

;;; Code:

;; Emacs 29+: eglot is built in.  Emacs 28: M-x package-install RET eglot (Debian: elpa-eglot).
(if (fboundp 'js-json-mode)
    (define-derived-mode sourcecheck-mode js-json-mode "SourceCheck"   ; Emacs 29+
      "Major mode for SourceCheck session files (`*.sourcecheck.json').")
  (define-derived-mode sourcecheck-mode js-mode "SourceCheck"          ; Emacs 28: no js-json-mode
    "Major mode for SourceCheck session files (`*.sourcecheck.json')."))

(add-to-list 'auto-mode-alist '("\\.sourcecheck\\.json\\'" . sourcecheck-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(sourcecheck-mode . ("sourcecheck-ls"))))

(add-hook 'sourcecheck-mode-hook #'eglot-ensure)

;;; sourcecheck.el ends here
