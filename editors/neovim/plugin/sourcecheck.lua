-- sourcecheck installed as a plugin (editors/neovim on 'runtimepath'): the document view and
-- review commands (:SourceCheckView, :SourceCheckReport), the lens commands and the view's
-- refresh. The server: on Neovim 0.11+ call vim.lsp.enable('sourcecheck') (lsp/sourcecheck.lua
-- holds its configuration); on 0.8 to 0.10 this file starts it for session files.
if vim.g.loaded_sourcecheck or vim.fn.has('nvim-0.7') == 0 then
  return
end
vim.g.loaded_sourcecheck = true
local sourcecheck = require('sourcecheck')
sourcecheck.setup()

local autostart = vim.fn.has('nvim-0.11') == 0 and vim.fn.has('nvim-0.8') == 1 and not vim.g.sourcecheck_no_autostart
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'json',
  callback = function(args)
    -- On every version: a session opened with no server to check it is said, visibly.
    if not sourcecheck.is_session(args.buf) or not sourcecheck.server_found() or not autostart then
      return
    end
    vim.lsp.start({
      name = 'sourcecheck',
      cmd = { 'sourcecheck-ls' },
      root_dir = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)),
      handlers = sourcecheck.handlers,
      capabilities = sourcecheck.capabilities(),
    })
  end,
})
