-- sourcecheck from a config that loads this file (dofile or :luafile): the plugin in this
-- folder, as if editors/neovim were on 'runtimepath' (or installed with a plugin manager).
local here = vim.fn.fnamemodify((debug.getinfo(1, 'S').source:gsub('^@', '')), ':p:h')
vim.opt.runtimepath:append(here)
vim.cmd('source ' .. vim.fn.fnameescape(here .. '/plugin/sourcecheck.lua'))
