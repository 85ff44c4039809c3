-- Loads editors/neovim as a plugin (on 'runtimepath', its plugin/ file sourced as Neovim does
-- at startup), opens a session and writes what it saw as JSON: the diagnostics, the messages
-- Neovim showed, and the code lenses and inlay hints drawn in the session's buffer.
-- Input (environment): SOURCECHECK_PLUGIN, SOURCECHECK_FILE, SOURCECHECK_WAIT_MS;
-- SOURCECHECK_ENABLE ("0": no vim.lsp.enable('sourcecheck') of the user's own),
-- SOURCECHECK_CMD (the server command, set with vim.lsp.config), SOURCECHECK_BEFORE and
-- SOURCECHECK_AFTER (Lua run before and after the plugin is loaded, as an init.lua would),
-- SOURCECHECK_DRAWN ("1": wait for lenses and hints to be drawn, and report them).
local wait = tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000')
local out = { diagnostics = {}, messages = {} }
local notify = vim.notify
vim.notify = function(message, level, opts)
  table.insert(out.messages, message)
  return notify(message, level, opts)
end

-- What is drawn in the buffer by the extmarks of the namespaces whose names match `pattern`.
local function drawn(buf, pattern)
  local texts = {}
  for name, ns in pairs(vim.api.nvim_get_namespaces()) do
    if name:find(pattern) then
      for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
        local chunks = mark[4].virt_text or {}
        local text = {}
        for _, chunk in ipairs(chunks) do
          table.insert(text, chunk[1])
        end
        if #text > 0 then
          table.insert(texts, table.concat(text))
        end
      end
    end
  end
  table.sort(texts)
  return texts
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
  if os.getenv('SOURCECHECK_DRAWN') ~= '1' or #out.diagnostics == 0 then
    return
  end
  -- The lenses the server has for the buffer (asked here), then what Neovim draws of them.
  local client = vim.lsp.get_clients({ bufnr = buf, name = 'sourcecheck' })[1]
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) } }
  local answer = client:request_sync('textDocument/codeLens', params, 10000, buf)
  out.lenses_served = #(answer and answer.result or {})
  local hints = client:request_sync('textDocument/inlayHint', {
    textDocument = params.textDocument,
    range = { start = { line = 0, character = 0 }, ['end'] = { line = vim.api.nvim_buf_line_count(buf), character = 0 } },
  }, 10000, buf)
  out.hints_served = #(hints and hints.result or {})
  vim.cmd('doautocmd InsertLeave') -- as a writer leaving Insert mode: lenses are fetched again
  local expected = os.getenv('SOURCECHECK_EXPECT_DRAWN') ~= '0'
  vim.wait(expected and wait or 1500, function()
    return #drawn(buf, '^nvim%.lsp%.codelens') > 0 and #drawn(buf, '^nvim%.lsp%.inlayhint') > 0
  end, 50)
  out.lenses = drawn(buf, '^nvim%.lsp%.codelens')
  out.hints = drawn(buf, '^nvim%.lsp%.inlayhint')
  out.hints_enabled = vim.lsp.inlay_hint.is_enabled({ bufnr = buf })
end)
if not ok then
  out.error = tostring(err)
end
io.stdout:write(vim.fn.json_encode(out))
vim.cmd('qa!')
