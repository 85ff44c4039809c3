-- sourcecheck for Neovim 0.11+, installed as a plugin (editors/neovim on 'runtimepath', e.g.
-- with a plugin manager by its path): vim.lsp.enable('sourcecheck') in init.lua uses this.
-- Attaches to *.sourcecheck.json files and to JSON files whose top level holds "annotations".
local sourcecheck = require('sourcecheck')

return {
  cmd = { 'sourcecheck-ls' },
  filetypes = { 'json' },
  root_dir = function(bufnr, on_dir)
    if sourcecheck.is_session(bufnr) and sourcecheck.server_found() then
      on_dir(vim.fs.root(bufnr, { '.git' }) or vim.fs.dirname(vim.api.nvim_buf_get_name(bufnr)))
    end
  end,
  handlers = sourcecheck.handlers,
  capabilities = sourcecheck.capabilities(),
}
