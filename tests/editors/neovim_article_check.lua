-- A cited article in a real, headless Neovim: editors/neovim as a plugin (vim.lsp.enable), the
-- real sourcecheck-ls (on PATH), SOURCECHECK_FOLDER holding two sessions that cite article.md.
-- Opens article.md (nothing else), waits for its claims' verdicts as inlay hints, edits a
-- claimed sentence (as typing would: one change of the buffer), waits for the warning that
-- says a session cites the text as it was, applies the code action whose title starts with
-- SOURCECHECK_FIX and writes every buffer. Writes what it saw as JSON; `failed` names the step
-- whose wait ran out.
local wait = tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000')
local folder = os.getenv('SOURCECHECK_FOLDER')
local out = { steps = {} }

local ok, err = pcall(function()
  vim.opt.runtimepath:append(os.getenv('SOURCECHECK_PLUGIN'))
  vim.cmd('runtime! plugin/sourcecheck.lua')
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(folder .. '/article.md'))
  local article = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[article].filetype
  local client
  out.attached = vim.wait(wait, function()
    client = vim.lsp.get_clients({ bufnr = article, name = 'sourcecheck' })[1]
    return client ~= nil and client.initialized
  end, 50)
  if not out.attached then
    out.failed = 'the server never attached to article.md'
    return
  end
  local function labels()
    local found = {}
    for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = article }) or {}) do
      local label = item.inlay_hint.label
      if type(label) == 'table' then
        local parts = {}
        for _, part in ipairs(label) do
          table.insert(parts, part.value)
        end
        label = table.concat(parts)
      end
      table.insert(found, vim.trim(label))
    end
    table.sort(found)
    return found
  end
  local shown = vim.wait(wait, function()
    return #labels() >= 3
  end, 100)
  out.hints = labels()
  if not shown then
    out.failed = 'no verdicts in the inlay hints'
    return
  end
  table.insert(out.steps, 'verdicts shown')

  -- "It never drops a frame." becomes "It never drops a single frame."
  local line = vim.api.nvim_buf_get_lines(article, 0, 1, false)[1]
  local at = line:find('frame%.') - 1
  vim.api.nvim_buf_set_text(article, 0, at, 0, at, { 'single ' })
  local warning
  local warned = vim.wait(wait, function()
    for _, d in ipairs(vim.diagnostic.get(article)) do
      if d.severity == vim.diagnostic.severity.WARN then
        warning = d
        return true
      end
    end
    return false
  end, 100)
  if not warned then
    out.failed = 'no warning after the edit'
    return
  end
  out.warning = warning.message
  table.insert(out.steps, 'edit said')

  local lsp = warning.user_data and warning.user_data.lsp
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(article) },
    range = lsp and lsp.range or { start = { line = 0, character = at }, ['end'] = { line = 0, character = at } },
    context = { diagnostics = lsp and { lsp } or {} },
  }
  local answers = vim.lsp.buf_request_sync(article, 'textDocument/codeAction', params, wait) or {}
  out.actions = {}
  local chosen
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      table.insert(out.actions, action.title)
      if action.title:sub(1, #os.getenv('SOURCECHECK_FIX')) == os.getenv('SOURCECHECK_FIX') then
        chosen = action
      end
    end
  end
  if not (chosen and chosen.edit) then
    out.failed = 'no such code action'
    return
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  vim.cmd('silent! wall')
  table.insert(out.steps, 'session followed')
end)
if not ok then
  out.error = tostring(err)
end
io.stdout:write(vim.fn.json_encode(out))
vim.cmd('qa!')
