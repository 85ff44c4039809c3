-- sourcecheck for Neovim 0.11+: put this in your init.lua (or require it from there).
-- Attaches to *.sourcecheck.json files and to JSON files whose top level holds "annotations".

local function is_session(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name:match('%.sourcecheck%.json$') then
    return true
  end
  local head = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, 400, false), '\n')
  return head:find('"annotations"%s*:') ~= nil
end

-- The document view (:SourceCheckView, the "open as text" lens): the module in lua/ beside
-- this file (or anywhere on 'runtimepath', e.g. installed as a plugin).
local here = vim.fn.fnamemodify((debug.getinfo(1, 'S').source:gsub('^@', '')), ':p:h')
vim.opt.runtimepath:append(here)
local has_view, view = pcall(require, 'sourcecheck')
if has_view then
  view.setup()
end

vim.lsp.config('sourcecheck', {
  cmd = { 'sourcecheck-ls' },
  filetypes = { 'json' },
  root_dir = function(bufnr, on_dir)
    if is_session(bufnr) then
      on_dir(vim.fs.root(bufnr, { '.git' }) or vim.fs.dirname(vim.api.nvim_buf_get_name(bufnr)))
    end
  end,
  handlers = has_view and view.handlers or nil,
  capabilities = has_view and view.capabilities() or nil,
})
vim.lsp.enable('sourcecheck')
