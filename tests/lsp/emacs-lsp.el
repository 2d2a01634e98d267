;;; emacs-lsp.el --- Emacs' eglot or lsp-mode against `warplint lsp', in batch mode  -*- lexical-binding: t -*-
;; Loaded by emacs-lsp.sh after docs/editors.md's blocks: its cuda-mode and the block for
;; the client named by $WARPLINT_EMACS_CLIENT (eglot or lsp-mode; `warplint' on PATH is
;; the build's binary).
;; `cuda-mode' (MELPA's, not in Debian) is the page's mode derived from c++-mode.
;; Opens the file, waits for the diagnostics (flymake, with either client), asks for the
;; hover on a launch, inserts two lines and saves, waits for the moved diagnostics.
;; Prints what it saw; exits 0, or 1 when something did not arrive.
(require 'cl-lib)
(defvar warplint-eglot (equal (getenv "WARPLINT_EMACS_CLIENT") "eglot"))
(if warplint-eglot
    (require 'eglot)
  (require 'lsp-mode)
  ;; Batch-mode settings of the test, not of the page: no questions, flymake.
  (setq lsp-auto-guess-root t lsp-enable-file-watchers nil lsp-diagnostics-provider :flymake
        lsp-session-file (expand-file-name "lsp-session" temporary-file-directory)
        lsp-restart 'ignore lsp-keep-workspace-alive nil))
;; Only the LSP client's diagnostics: c++-mode's own flymake backends (`make
;; check-syntax', the legacy proc backend) fail on this project and report late.
;; cuda-mode and its auto-mode-alist entry are the page's (docs/editors.md), loaded before.
(setq-default flymake-diagnostic-functions nil)
(add-hook 'cuda-mode-hook (lambda () (setq-local flymake-diagnostic-functions nil)))
(defun warplint-say (fmt &rest args) (princ (concat (apply #'format fmt args) "\n")))
(defun warplint-wait (pred)
  (let ((n 0))
    (while (and (< n 1200) (not (funcall pred)))
      (accept-process-output nil 0.1)
      (setq n (1+ n)))
    (funcall pred)))
(defun warplint-dump (tag)
  (dolist (d (sort (flymake-diagnostics)
                   (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
    (warplint-say "%s %d %s %s" tag (line-number-at-pos (flymake-diagnostic-beg d))
                  (flymake-diagnostic-type d) (flymake-diagnostic-text d))))
(let ((ok t))
  (find-file (getenv "LSP_FILE"))
  (warplint-say "mode %s" major-mode)
  (if warplint-eglot (call-interactively #'eglot) (lsp))
  (if (not (warplint-wait (lambda () (>= (length (flymake-diagnostics)) 2))))
      (progn (warplint-say "FAIL no diagnostics") (setq ok nil))
    (warplint-dump "open")
    (let* ((params (list :textDocument (list :uri (concat "file://" buffer-file-name))
                         :position (list :line 18 :character 4)))
           (hover (if warplint-eglot
                      (jsonrpc-request (eglot-current-server) :textDocument/hover params)
                    (lsp-request "textDocument/hover" params)))
           (contents (if warplint-eglot (plist-get hover :contents) (gethash "contents" hover)))
           (value (if warplint-eglot (plist-get contents :value) (gethash "value" contents))))
      (dolist (line (split-string (or value "") "\n" t))
        (warplint-say "hover %s" line)))
    (goto-char (point-min))
    (forward-line 15)
    (insert "// moved\n// down\n")
    (save-buffer)
    (if (warplint-wait (lambda ()
                         (let ((ds (flymake-diagnostics)))
                           (and ds (cl-every (lambda (d) (> (line-number-at-pos (flymake-diagnostic-beg d)) 18))
                                             ds)))))
        (warplint-dump "saved")
      (warplint-say "FAIL the diagnostics did not move after the save")
      (setq ok nil)))
  (if warplint-eglot (eglot-shutdown (eglot-current-server)) (lsp-workspace-shutdown (car (lsp-workspaces))))
  (kill-emacs (if ok 0 1)))
