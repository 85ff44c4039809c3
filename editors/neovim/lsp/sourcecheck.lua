-- sourcecheck for Neovim 0.11+, installed as a plugin (editors/neovim on 'runtimepath', e.g.
-- with a plugin manager by its path): vim.lsp.enable('sourcecheck') in init.lua uses this.
-- Attaches to *.sourcecheck.json files, to JSON files whose top level holds "annotations", and
-- to Markdown and text files beside sessions (the files sessions cite: their claims' verdicts).
-- vim.lsp.config('sourcecheck', { cmd = { '/path/to/sourcecheck-ls' } }) runs another server.
local sourcecheck = require('sourcecheck').setup()

return {
  cmd = { 'sourcecheck-ls' },
  filetypes = { 'json', 'markdown', 'text' },
  root_dir = function(bufnr, on_dir)
    local config = vim.lsp.config[sourcecheck.CLIENT]
    local wanted = sourcecheck.is_session(bufnr) or sourcecheck.is_cited(bufnr)
    if wanted and sourcecheck.server_found(config and config.cmd) then
      on_dir(sourcecheck.root_dir(bufnr))
    end
  end,
  handlers = sourcecheck.handlers,
  capabilities = sourcecheck.capabilities(),
}
