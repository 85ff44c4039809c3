-- A Neovim too old for the plugin (Debian's 0.7.2) with editors/neovim on 'runtimepath' and
-- its plugin/ file sourced as at startup: opens two sessions, runs :SourceCheckView and
-- :SourceCheckReport, and writes as JSON what Neovim said (:messages) after each step.
-- Input (environment): SOURCECHECK_PLUGIN, SOURCECHECK_FILE, SOURCECHECK_OTHER (a second session).
local out = {}
local function messages()
  return vim.api.nvim_exec('messages', true)
end
-- A command's error message (what it shows in red), else what it added to :messages.
local function run(command)
  vim.cmd('messages clear')
  local done, error_message = pcall(vim.cmd, command)
  return (done and '' or tostring(error_message)) .. messages()
end
local ok, err = pcall(function()
  vim.opt.runtimepath:append(os.getenv('SOURCECHECK_PLUGIN'))
  vim.cmd('runtime! plugin/sourcecheck.lua')
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SOURCECHECK_FILE')))
  vim.wait(1000)
  out.opened = messages()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SOURCECHECK_OTHER')))
  vim.wait(500)
  out.opened_again = messages()
  out.view = run('SourceCheckView')
  out.report = run('SourceCheckReport')
  out.clients = #vim.lsp.get_active_clients()
end)
if not ok then
  out.error = tostring(err)
end
io.stdout:write(vim.fn.json_encode(out))
vim.cmd('qa!')
