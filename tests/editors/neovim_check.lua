-- Drives a real, headless Neovim against sourcecheck-ls and writes what it saw as JSON.
-- Input (environment): SOURCECHECK_CONFIG (a config file to load, or "start_client" for
-- Neovim 0.7), SOURCECHECK_FILE (the session to open), SOURCECHECK_HOVER ("line,col").
local wait = tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000')
local out = { attached = false, diagnostics = {}, hover = nil, actions = {}, fixed = false }

local function finish()
  io.stdout:write(vim.fn.json_encode(out))
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  local config = os.getenv('SOURCECHECK_CONFIG')
  vim.cmd('filetype on')
  if config ~= 'start_client' then
    dofile(config)
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SOURCECHECK_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'json'
  if config == 'start_client' then -- Neovim 0.7 has neither vim.lsp.start nor vim.lsp.config
    local id = vim.lsp.start_client({ name = 'sourcecheck', cmd = { 'sourcecheck-ls' }, root_dir = vim.fn.getcwd() })
    vim.lsp.buf_attach_client(buf, id)
  end

  local function clients()
    if vim.lsp.get_clients then
      return vim.lsp.get_clients({ bufnr = buf })
    end
    return vim.lsp.buf_get_clients(buf)
  end
  local function first_client()
    for _, c in pairs(clients()) do
      return c
    end
  end

  out.attached = vim.wait(wait, function() return first_client() ~= nil and first_client().initialized ~= false end, 50)
  if not out.attached then
    return
  end
  vim.wait(wait, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  local function code_of(d)
    return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { code = code_of(d), lnum = d.lnum, col = d.col, end_col = d.end_col, message = d.message })
  end
  local client = first_client()
  if client == nil then
    return
  end
  out.offset_encoding = client.offset_encoding

  local line, col = os.getenv('SOURCECHECK_HOVER'):match('(%d+),(%d+)')
  local uri = vim.uri_from_bufnr(buf)
  local position = { line = tonumber(line), character = tonumber(col) }
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = { uri = uri }, position = position }, 10000)
  for _, response in pairs(hover or {}) do
    if response.result and response.result.contents then
      out.hover = response.result.contents.value
    end
  end

  local ambiguous
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if code_of(d) == 'boundary-ambiguous' then
      ambiguous = d
    end
  end
  if ambiguous == nil then
    return
  end
  local lsp_diagnostic = vim.deepcopy(ambiguous.user_data and ambiguous.user_data.lsp or {})
  -- Neovim 0.7 keeps no range in user_data: rebuild it (the fixture's line is ASCII).
  lsp_diagnostic.range = lsp_diagnostic.range or {
    start = { line = ambiguous.lnum, character = ambiguous.col },
    ['end'] = { line = ambiguous.end_lnum, character = ambiguous.end_col },
  }
  lsp_diagnostic.message = lsp_diagnostic.message or ambiguous.message
  local params = { textDocument = { uri = uri }, range = lsp_diagnostic.range, context = { diagnostics = { lsp_diagnostic } } }
  local answer = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000)
  local chosen
  for _, response in pairs(answer or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(out.actions, action.title)
      chosen = chosen or action
    end
  end
  if chosen == nil then
    return
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  out.fixed = vim.wait(wait, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if code_of(d) == 'boundary-ambiguous' then
        return false
      end
    end
    return true
  end, 50)
  out.text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
end)
if not ok then
  out.error = tostring(err)
end
finish()
