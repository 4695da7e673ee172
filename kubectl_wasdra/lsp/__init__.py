"""`kubectl wasdra lsp`: a language server (pygls) that shows check's findings, fixes and field docs in editors."""
