-- sourcecheck for Neovim 0.8 to 0.10: put this in your init.lua.

-- The document view (:SourceCheckView, the "open as text" lens): the module in lua/ beside
-- this file (or anywhere on 'runtimepath', e.g. installed as a plugin).
local here = vim.fn.fnamemodify((debug.getinfo(1, 'S').source:gsub('^@', '')), ':p:h')
vim.opt.runtimepath:append(here)
local has_view, view = pcall(require, 'sourcecheck')
if has_view then
  view.setup()
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'json',
  callback = function(args)
    local name = vim.api.nvim_buf_get_name(args.buf)
    local head = table.concat(vim.api.nvim_buf_get_lines(args.buf, 0, 400, false), '\n')
    if not (name:match('%.sourcecheck%.json$') or head:find('"annotations"%s*:')) then
      return
    end
    vim.lsp.start({
      name = 'sourcecheck',
      cmd = { 'sourcecheck-ls' },
      root_dir = vim.fs.dirname(name),
      handlers = has_view and view.handlers or nil,
      capabilities = has_view and view.capabilities() or nil,
    })
  end,
})
