-- Loaded (-c 'luafile ...') into a Neovim that a test drives under tmux as a writer would.
-- :lua SourceCheckProbe('stage') writes what that writer has in front of them as JSON to
-- $SOURCECHECK_RESULT: the mode, the windows of the tab (what they show, their line numbers),
-- the session's text, the code lenses drawn in it, whether inlay hints are on and those it
-- holds (line, label), the messages.
local function drawn(buf, pattern)
  local texts = {}
  for name, ns in pairs(vim.api.nvim_get_namespaces()) do
    if name:find(pattern) then
      for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
        local text = {}
        for _, chunk in ipairs(mark[4].virt_text or {}) do
          table.insert(text, chunk[1])
        end
        if #text > 0 then
          table.insert(texts, { line = mark[2] + 1, text = table.concat(text) })
        end
      end
    end
  end
  table.sort(texts, function(a, b) return a.line < b.line end)
  return texts
end

function SourceCheckProbe(stage)
  local state = { stage = stage, mode = vim.api.nvim_get_mode().mode, windows = {} }
  local ok, err = pcall(function()
    local sourcecheck = require('sourcecheck')
    local session = vim.fn.bufnr(os.getenv('SOURCECHECK_FILE'))
    for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
      local buf = vim.api.nvim_win_get_buf(win)
      table.insert(state.windows, {
        name = vim.api.nvim_buf_get_name(buf),
        session = buf == session,
        view = sourcecheck.views[buf] ~= nil,
        current = win == vim.api.nvim_get_current_win(),
        number = vim.wo[win].number,
        relativenumber = vim.wo[win].relativenumber,
        column = vim.api.nvim_win_get_position(win)[2],
        first_line = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1],
      })
    end
    state.session_text = table.concat(vim.api.nvim_buf_get_lines(session, 0, -1, false), '\n')
    state.lenses = drawn(session, '^nvim%.lsp%.codelens')
    state.hints_enabled = vim.lsp.inlay_hint.is_enabled({ bufnr = session })
    state.hints = {}
    for _, found in ipairs(vim.lsp.inlay_hint.get({ bufnr = session })) do
      local label = found.inlay_hint.label
      if type(label) ~= 'string' then
        local parts = {}
        for _, part in ipairs(label) do
          table.insert(parts, part.value)
        end
        label = table.concat(parts)
      end
      table.insert(state.hints, { line = found.inlay_hint.position.line, label = label })
    end
    table.sort(state.hints, function(a, b) return a.line < b.line or (a.line == b.line and a.label < b.label) end)
    state.session_uri = vim.uri_from_bufnr(session)
    state.report = sourcecheck.reports[state.session_uri]
    state.messages = vim.api.nvim_exec2('messages', { output = true }).output
  end)
  state.error = not ok and tostring(err) or nil
  local path = os.getenv('SOURCECHECK_RESULT')
  local file = assert(io.open(path .. '.part', 'w')) -- then renamed: never read half written
  file:write(vim.fn.json_encode(state))
  file:close()
  assert(os.rename(path .. '.part', path))
end
