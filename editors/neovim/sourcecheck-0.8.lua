-- sourcecheck from a config that loads this file (dofile or :luafile), starting the server
-- with vim.lsp.start as the plugin does on Neovim 0.8 to 0.10, on 0.11 too (the tests run
-- that way of starting it on 0.11).
local here = vim.fn.fnamemodify((debug.getinfo(1, 'S').source:gsub('^@', '')), ':p:h')
vim.g.sourcecheck_no_autostart = true
vim.opt.runtimepath:append(here)
vim.cmd('source ' .. vim.fn.fnameescape(here .. '/plugin/sourcecheck.lua'))
require('sourcecheck').autostart()
