-- Loads editors/neovim as a plugin (on 'runtimepath', its plugin/ file sourced as Neovim does
-- at startup), opens a session and writes what it saw as JSON: the diagnostics, the messages
-- Neovim showed.
-- Input (environment): SOURCECHECK_PLUGIN, SOURCECHECK_FILE, SOURCECHECK_WAIT_MS;
-- SOURCECHECK_ENABLE ("0": no vim.lsp.enable('sourcecheck') of the user's own),
-- SOURCECHECK_CMD (the server command, set with vim.lsp.config), SOURCECHECK_BEFORE and
-- SOURCECHECK_AFTER (Lua run before and after the plugin is loaded, as an init.lua would).
local wait = tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000')
local out = { diagnostics = {}, messages = {} }
local notify = vim.notify
vim.notify = function(message, level, opts)
  table.insert(out.messages, message)
  return notify(message, level, opts)
end

local ok, err = pcall(function()
  local before = os.getenv('SOURCECHECK_BEFORE')
  if before and before ~= '' then
    assert(loadstring(before))()
  end
  vim.opt.runtimepath:append(os.getenv('SOURCECHECK_PLUGIN'))
  vim.cmd('runtime! plugin/sourcecheck.lua')
  vim.cmd('filetype on')
  local cmd = os.getenv('SOURCECHECK_CMD')
  if cmd and cmd ~= '' then
    vim.lsp.config('sourcecheck', { cmd = { cmd } })
  end
  if os.getenv('SOURCECHECK_ENABLE') ~= '0' then
    vim.lsp.enable('sourcecheck')
  end
  local after = os.getenv('SOURCECHECK_AFTER')
  if after and after ~= '' then
    assert(loadstring(after))()
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SOURCECHECK_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(wait, function() return #vim.diagnostic.get(buf) > 0 end, 50)
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
