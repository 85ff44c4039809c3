-- sourcecheck's document view and review, when editors/neovim is installed as a plugin:
-- :SourceCheckView, :SourceCheckReport, the lens commands (open as text, show references)
-- and the view's refresh. The server itself is configured in
-- init.lua (editors/neovim/sourcecheck.lua or sourcecheck-0.8.lua).
if vim.g.loaded_sourcecheck or vim.fn.has('nvim-0.7') == 0 then
  return
end
vim.g.loaded_sourcecheck = true
require('sourcecheck').setup()
