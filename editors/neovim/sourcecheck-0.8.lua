-- sourcecheck for Neovim 0.8 to 0.10: put this in your init.lua.
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
    })
  end,
})
