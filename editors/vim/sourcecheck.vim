" sourcecheck for Vim 9 with ALE: `source` this file from your vimrc.
" Runs sourcecheck-ls (it must be on $PATH) for *.sourcecheck.json files: diagnostics,
" :ALEHover, :ALECodeAction (the quick fixes).

" ALE as a Vim package (Debian's vim-ale); silent when ALE comes from elsewhere.
silent! packadd! ale

augroup sourcecheck
  autocmd!
  " JSON highlighting and indent from the json part; ALE's linters from both parts.
  autocmd BufNewFile,BufRead *.sourcecheck.json setlocal filetype=json.sourcecheck
augroup END

call ale#linter#Define('sourcecheck', {
\   'name': 'sourcecheck',
\   'lsp': 'stdio',
\   'executable': 'sourcecheck-ls',
\   'command': '%e',
\   'project_root': {buffer -> fnamemodify(bufname(buffer), ':p:h')},
\})
