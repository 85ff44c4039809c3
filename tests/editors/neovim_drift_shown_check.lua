-- Drift seen in a real, headless Neovim: editors/neovim as a plugin, the real sourcecheck-ls
-- (on PATH), a session on disk beside notes.txt and article.md. (a) notes.txt edited in
-- Neovim (a line added at its top) and written: the session's diagnostics must come to hold
-- `source-changed` with nothing typed in the session; its "Sync" code action applied, the
-- session written and checked with the sourcecheck CLI. (b) notes.txt changed by another
-- program (Python) and :checktime run: `cited-text-changed` must show. (c) article.md, never
-- opened in Neovim, changed by another program, nothing typed: shown within 3 s.
-- Input (environment): SOURCECHECK_PLUGIN, SOURCECHECK_SETUP ("plugin": the folder on
-- 'runtimepath', started with vim.lsp.enable; "start": sourcecheck-0.8.lua, vim.lsp.start),
-- SOURCECHECK_FOLDER (session.sourcecheck.json, notes.txt, article.md), SOURCECHECK_PYTHON,
-- SOURCECHECK_CLI (the sourcecheck command), SOURCECHECK_WAIT_MS (how long the server may
-- take to start), SOURCECHECK_DRIFT_MS (how long a change may take to show). Writes what it
-- saw as JSON; `failed` names the first step whose wait ran out.
local wait = tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000')
local drift_wait = tonumber(os.getenv('SOURCECHECK_DRIFT_MS') or '5000')
local folder = os.getenv('SOURCECHECK_FOLDER')
local uv = vim.uv or vim.loop
local out = { steps = {} }

local function edit(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(folder .. '/' .. name))
  return vim.api.nvim_get_current_buf()
end

-- The session's diagnostics as plain data (code, line, message, the LSP diagnostic).
local function diagnostics(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, { code = d.code, lnum = d.lnum, message = d.message, lsp = d.user_data and d.user_data.lsp })
  end
  table.sort(found, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and tostring(a.code) < tostring(b.code))
  end)
  return found
end

local function with_code(bufnr, code)
  for _, d in ipairs(diagnostics(bufnr)) do
    if d.code == code then
      return d
    end
  end
end

local DRIFT = { ['source-changed'] = true, ['cited-text-changed'] = true, ['source-unreadable'] = true }
local function drift_codes(bufnr)
  local codes = {}
  for _, d in ipairs(diagnostics(bufnr)) do
    if DRIFT[d.code] then
      table.insert(codes, d.code)
    end
  end
  return codes
end

-- Wait until `cond()`, polling every 10 ms; the milliseconds it took, or nil.
local function timed(ms, cond)
  local start = uv.hrtime()
  if vim.wait(ms, cond, 10) then
    return math.floor((uv.hrtime() - start) / 1e6 + 0.5)
  end
end

local function run(command)
  local output = vim.fn.system(command)
  return { code = vim.v.shell_error, output = output }
end

local ok, err = pcall(function()
  vim.opt.runtimepath:append(os.getenv('SOURCECHECK_PLUGIN'))
  if os.getenv('SOURCECHECK_SETUP') == 'start' then
    dofile(os.getenv('SOURCECHECK_PLUGIN') .. '/sourcecheck-0.8.lua')
  else
    vim.cmd('runtime! plugin/sourcecheck.lua')
    vim.lsp.enable('sourcecheck')
  end
  vim.cmd('filetype on')
  vim.o.autoread = true -- :checktime reloads a file changed on disk without asking

  local session = edit('session.sourcecheck.json')
  local client
  out.attached = vim.wait(wait, function()
    client = vim.lsp.get_clients({ bufnr = session, name = 'sourcecheck' })[1]
    return client ~= nil and client.initialized and client.server_capabilities ~= nil
  end, 50)
  if not out.attached then
    out.failed = 'the server never attached'
    return
  end
  local init = client.capabilities or client.config.capabilities or {}
  out.refresh_declared = vim.tbl_get(init, 'workspace', 'diagnostics', 'refreshSupport') == true
  -- The first pull answered (it waits for the server to read the session's files): no drift.
  local first = client:request_sync('textDocument/diagnostic', { textDocument = { uri = vim.uri_from_bufnr(session) } }, wait, session)
  out.first_pull = first and first.result and #(first.result.items or {}) or -1
  out.before = drift_codes(session)

  -- (a) A line added at the top of notes.txt in Neovim, and :w.
  local notes = edit('notes.txt')
  vim.api.nvim_buf_set_lines(0, 0, 0, false, { 'A line added at the top.' })
  local start = uv.hrtime()
  vim.cmd('write')
  out.save_ms = timed(drift_wait, function()
    return with_code(session, 'source-changed') ~= nil
  end)
  if out.save_ms then -- from :w itself, the write included
    out.save_ms = math.floor((uv.hrtime() - start) / 1e6 + 0.5)
  end
  table.insert(out.steps, 'notes.txt written')
  out.after_save = diagnostics(session)
  local changed = with_code(session, 'source-changed')
  if not changed then
    out.failed = 'no source-changed after :w'
    return
  end

  vim.cmd('buffer ' .. session)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(session) },
    range = changed.lsp.range,
    context = { diagnostics = { changed.lsp } },
  }
  local answers = vim.lsp.buf_request_sync(session, 'textDocument/codeAction', params, wait) or {}
  out.actions = {}
  local sync
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      table.insert(out.actions, { title = action.title, preferred = action.isPreferred == true })
      if action.title:find('^Sync') then
        sync = action
      end
    end
  end
  if not (sync and sync.edit) then
    out.failed = 'no Sync action with an edit'
    return
  end
  vim.lsp.util.apply_workspace_edit(sync.edit, client.offset_encoding)
  out.synced_ms = timed(drift_wait, function()
    return #drift_codes(session) == 0
  end)
  out.after_sync = diagnostics(session)
  vim.cmd('write')
  table.insert(out.steps, 'synced and written')
  -- Checked with the CLI now, while every document equals its file.
  local cli = os.getenv('SOURCECHECK_CLI')
  local path = folder .. '/session.sourcecheck.json'
  out.check = run({ cli, '--json', path })
  out.sync_check = run({ cli, 'sync', '--check', path })

  -- (b) notes.txt changed by another program: "optional", cited, becomes "required". It is
  -- shown in a window beside the session: :checktime (as Neovim on focus) checks only the
  -- buffers shown in a window.
  vim.cmd('sbuffer ' .. notes)
  local python = [[
import os, sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace("optional", "required"))
t = os.stat(path).st_mtime + 5  # a modification time Neovim sees as new
os.utime(path, (t, t))
]]
  out.python = run({ os.getenv('SOURCECHECK_PYTHON'), '-c', python, folder .. '/notes.txt' })
  start = uv.hrtime()
  vim.cmd('checktime')
  out.checktime_ms = timed(drift_wait, function()
    return with_code(session, 'cited-text-changed') ~= nil
  end)
  if out.checktime_ms then
    out.checktime_ms = math.floor((uv.hrtime() - start) / 1e6 + 0.5)
  end
  table.insert(out.steps, 'notes.txt changed by Python, :checktime')
  out.after_checktime = diagnostics(session)
  if not out.checktime_ms then
    out.failed = 'no cited-text-changed after :checktime'
    return
  end

  -- (c) article.md, which Neovim has never opened, changed by another program (as `sed -i` or
  -- `git pull` do): nothing typed, no :checktime, no notification from the plugin. The server
  -- sees it by itself (it looks at the open sessions' files about once a second).
  local before_c = #diagnostics(session)
  local sed = [[
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace("came in version 2", "came in version 3"))
]]
  out.python_c = run({ os.getenv('SOURCECHECK_PYTHON'), '-c', sed, folder .. '/article.md' })
  start = uv.hrtime()
  out.outside_ms = timed(drift_wait, function()
    for _, d in ipairs(diagnostics(session)) do
      if d.code == 'cited-text-changed' and d.message:find('article.md', 1, true) then
        return true
      end
    end
    return false
  end)
  if out.outside_ms then
    out.outside_ms = math.floor((uv.hrtime() - start) / 1e6 + 0.5)
  end
  out.before_outside = before_c
  out.after_outside = diagnostics(session)
  table.insert(out.steps, 'article.md changed by Python, nothing typed')
  if not out.outside_ms then
    out.failed = 'no cited-text-changed for article.md changed by another program'
  end
end)
if not ok then
  out.error = tostring(err)
end
-- The LSP diagnostics are not JSON-friendly everywhere (vim.NIL): keep only what the test reads.
for _, name in ipairs({ 'after_save', 'after_sync', 'after_checktime', 'after_outside' }) do
  for _, d in ipairs(out[name] or {}) do
    d.lsp = nil
  end
end
io.stdout:write(vim.fn.json_encode(out))
vim.cmd('qa!')
