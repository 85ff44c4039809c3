-- Loads editors/neovim as a plugin (on 'runtimepath'), enables the server as Neovim 0.11
-- does (vim.lsp.enable), opens a session and writes what it saw as JSON: the diagnostics
-- and the messages Neovim showed.
local out = { diagnostics = {}, messages = {} }
local notify = vim.notify
vim.notify = function(message, level, opts)
  table.insert(out.messages, message)
  return notify(message, level, opts)
end
local ok, err = pcall(function()
  vim.opt.runtimepath:append(os.getenv('SOURCECHECK_PLUGIN'))
  vim.cmd('runtime! plugin/sourcecheck.lua')
  vim.cmd('filetype on')
  vim.lsp.enable('sourcecheck')
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SOURCECHECK_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000'), function() return #vim.diagnostic.get(buf) > 0 end, 50)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { code = d.code, lnum = d.lnum })
  end
  out.commands = vim.fn.exists(':SourceCheckView') == 2 and vim.fn.exists(':SourceCheckReport') == 2
end)
if not ok then
  out.error = tostring(err)
end
io.stdout:write(vim.fn.json_encode(out))
vim.cmd('qa!')
