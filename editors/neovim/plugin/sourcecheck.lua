-- sourcecheck installed as a plugin (editors/neovim on 'runtimepath'). It starts the server
-- for session files: on Neovim 0.11+ with vim.lsp.enable('sourcecheck') (lsp/sourcecheck.lua
-- holds its configuration), on 0.8 to 0.10 with vim.lsp.start; not at all when
-- vim.g.sourcecheck_no_autostart is set. Everything else (commands, lenses and hints, edits,
-- written files) is the module's setup(): require('sourcecheck').setup({ inlay_hints = false,
-- code_lens = false }) turns those two off. Before 0.8 a session opened, and the commands,
-- say what is needed.
if vim.g.loaded_sourcecheck then
  return
end
vim.g.loaded_sourcecheck = true

if vim.fn.has('nvim-0.7') == 0 then -- no nvim_create_autocmd / nvim_create_user_command yet
  vim.cmd([[
    augroup sourcecheck_too_old
      autocmd!
      autocmd FileType json lua local s = require('sourcecheck'); if s.is_session(tonumber(vim.fn.expand('<abuf>'))) then s.warn_if_too_old() end
    augroup END
    command! -nargs=? SourceCheckView lua require('sourcecheck').notify_too_old()
    command! -nargs=? -bang SourceCheckReport lua require('sourcecheck').notify_too_old()
  ]])
  return
end

local sourcecheck = require('sourcecheck')
sourcecheck.setup()
if not vim.g.sourcecheck_no_autostart then
  if vim.fn.has('nvim-0.11') == 1 then
    vim.lsp.enable(sourcecheck.CLIENT)
  elseif vim.fn.has('nvim-0.8') == 1 then
    sourcecheck.autostart()
  end
end
vim.api.nvim_create_autocmd('FileType', {
  group = vim.api.nvim_create_augroup('sourcecheck.plugin', { clear = true }),
  pattern = 'json',
  callback = function(args)
    -- On every version: a session opened with nothing to check it is said, visibly, once.
    sourcecheck.session_opened(args.buf)
  end,
})
