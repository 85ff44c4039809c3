;;; emacs_check.el --- what eglot shows of sourcecheck-ls in a real Emacs  -*- lexical-binding: t; -*-

;; Loaded after the user's init file (which loads editors/emacs/sourcecheck.el as the README
;; says), in `emacs -nw' under tmux.  It waits for the session file's buffer to be managed by
;; eglot, records flymake's diagnostics and eglot's hover, puts point on the
;; `boundary-ambiguous' diagnostic and says so (stage "code-action"); the test then types
;; M-x eglot-code-actions RET RET.  Once the diagnostic is gone it saves the buffer, writes
;; stage "done" and exits.  Input (environment): SOURCECHECK_FILE, SOURCECHECK_RESULT (where
;; to write the JSON), SOURCECHECK_HOVER ("line,column", both from 0), SOURCECHECK_WAIT_MS.

;;; Code:

(require 'cl-lib)
(require 'json)

(defvar sc-check--wait (/ (string-to-number (or (getenv "SOURCECHECK_WAIT_MS") "15000")) 1000.0))
(defvar sc-check--out (list (cons 'stage "started") (cons 'emacs emacs-version)))
(defvar sc-check--state 'attach)
(defvar sc-check--since (float-time))
(defvar sc-check--timer nil)
(defvar sc-check--busy nil "Non-nil while a step runs: a request it waits on lets timers run.")

(defun sc-check--set (key value)
  (setf (alist-get key sc-check--out) value))

(defun sc-check--write (stage)
  (sc-check--set 'stage stage)
  (let ((path (getenv "SOURCECHECK_RESULT")))
    (with-temp-file (concat path ".tmp")
      (insert (json-encode sc-check--out)))
    (rename-file (concat path ".tmp") path t)))

(defun sc-check--buffer ()
  (find-buffer-visiting (getenv "SOURCECHECK_FILE")))

(defun sc-check--code (diag)
  (let ((data (if (fboundp 'flymake-diagnostic-data)
                  (flymake-diagnostic-data diag)
                (eglot--diag-data diag))))
    (plist-get (cdr (assoc 'eglot-lsp-diag data)) :code)))

(defun sc-check--diagnostics ()
  (cl-loop for d in (flymake-diagnostics)
           for beg = (flymake-diagnostic-beg d)
           collect (list (cons 'code (sc-check--code d))
                         (cons 'line (1- (line-number-at-pos beg)))
                         (cons 'column (save-excursion (goto-char beg) (current-column)))
                         (cons 'message (flymake-diagnostic-text d)))))

(defun sc-check--ambiguous ()
  (cl-find-if (lambda (d) (equal (sc-check--code d) "boundary-ambiguous")) (flymake-diagnostics)))

(defun sc-check--finish ()
  (when sc-check--timer (cancel-timer sc-check--timer))
  (sc-check--write "done")
  (kill-emacs 0))

(defun sc-check--next (state)
  (setq sc-check--state state
        sc-check--since (float-time)))

(defun sc-check--late ()
  (> (- (float-time) sc-check--since) sc-check--wait))

(defun sc-check--step ()
  (unless sc-check--busy
    (setq sc-check--busy t)
    (unwind-protect
        (condition-case err
            (let ((buffer (sc-check--buffer)))
              (when buffer
                (with-current-buffer buffer
                  (sc-check--step-in-buffer))))
          (error (sc-check--set 'error (error-message-string err))
                 (sc-check--finish)))
      (setq sc-check--busy nil))))

(defun sc-check--step-in-buffer ()
  (pcase sc-check--state
    ('attach
     (sc-check--set 'mode (symbol-name major-mode))
     (sc-check--set 'parent_mode (symbol-name (get major-mode 'derived-mode-parent)))
     (cond ((and (bound-and-true-p eglot--managed-mode) (eglot-current-server))
            (sc-check--set 'attached t)
            (sc-check--next 'diagnostics))
           ((sc-check--late) (sc-check--finish))))
    ('diagnostics
     (cond ((flymake-diagnostics)
            (sc-check--set 'diagnostics (vconcat (sc-check--diagnostics)))
            (sc-check--next 'hover)
            (let* ((where (split-string (getenv "SOURCECHECK_HOVER") ","))
                   (line (string-to-number (car where)))
                   (column (string-to-number (cadr where))))
              (goto-char (point-min))
              (forward-line line)
              (forward-char column)
              (eglot-hover-eldoc-function
               (lambda (info &rest _) (sc-check--set 'hover (or info ""))))))
           ((sc-check--late) (sc-check--finish))))
    ('hover
     (when (or (alist-get 'hover sc-check--out) (sc-check--late))
       (let ((diag (sc-check--ambiguous)))
         (if (null diag)
             (sc-check--finish)
           (goto-char (1+ (flymake-diagnostic-beg diag)))
           (sc-check--set 'actions
                          (vconcat (mapcar (lambda (a) (plist-get a :title))
                                           (eglot-code-actions (point) (point)))))
           (sc-check--next 'fix)
           (sc-check--write "code-action")))))
    ('fix
     (cond ((and (buffer-modified-p) (not (sc-check--ambiguous)))
            (sc-check--set 'fixed t)
            (save-buffer)
            (sc-check--set 'text (buffer-substring-no-properties (point-min) (point-max)))
            (sc-check--finish))
           ((sc-check--late)
            (sc-check--set 'text (buffer-substring-no-properties (point-min) (point-max)))
            (sc-check--finish))))))

(setq sc-check--timer (run-with-timer 0.2 0.1 #'sc-check--step))

;;; emacs_check.el ends here
