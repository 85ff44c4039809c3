-- Asks a real, headless Neovim 0.11's sourcecheck client for completion at a few places of a
-- session and writes the labels it got as JSON.
-- Input (environment): SOURCECHECK_CONFIG, SOURCECHECK_FILE, SOURCECHECK_PLACES ("line,col;...").
local wait = tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000')
local out = { attached = false, places = {} }
local ok, err = pcall(function()
  vim.cmd('filetype on')
  dofile(os.getenv('SOURCECHECK_CONFIG'))
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SOURCECHECK_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'json'
  out.attached = vim.wait(wait, function() return #vim.lsp.get_clients({ bufnr = buf }) > 0 end, 50)
  if not out.attached then
    return
  end
  vim.wait(wait, function() return #vim.diagnostic.get(buf) >= 0 and vim.lsp.get_clients({ bufnr = buf })[1].initialized end, 50)
  for place in os.getenv('SOURCECHECK_PLACES'):gmatch('[^;]+') do
    local line, col = place:match('(%d+),(%d+)')
    local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = tonumber(line), character = tonumber(col) } }
    local labels = {}
    local responses = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, 10000) or {}
    for _, response in pairs(responses) do
      local result = response.result or {}
      for _, item in ipairs(result.items or result) do
        table.insert(labels, { label = item.label, filter = item.filterText or item.label })
      end
    end
    table.insert(out.places, labels)
  end
end)
if not ok then
  out.error = tostring(err)
end
io.stdout:write(vim.fn.json_encode(out))
vim.cmd('qa!')
