-- Drives a real, headless Neovim through sourcecheck's review and reference lenses and writes
-- what it saw as JSON. Input (environment): SOURCECHECK_CONFIG (a config file, loaded with
-- :luafile as the README shows, or "start_client" for Neovim 0.7: editors/neovim is then put
-- on 'runtimepath' by hand), SOURCECHECK_FILE (the session), SOURCECHECK_SCENARIO:
--   "report"  :SourceCheckReport with vim.ui.open replaced by a recorder (Neovim 0.10+; before
--             that the module runs xdg-open, which the test puts on PATH as a recorder);
--   "lens"    the "cited by N refs" lens of document SOURCECHECK_DOCUMENT, run as a user runs
--             it (cursor on its line, vim.lsp.codelens.run(), the lens picked from the menu).
local wait = tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000')
local out = { attached = false }
local started = vim.loop.hrtime()

local function finish()
  out.ms = math.floor((vim.loop.hrtime() - started) / 1e6)
  io.stdout:write(vim.fn.json_encode(out))
  vim.cmd('qa!')
end

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- What the module tells the user (an error ends a wait early).
out.notified = {}
local failed = false
local notify = vim.notify
vim.notify = function(message, level, ...)
  table.insert(out.notified, message)
  if level == vim.log.levels.ERROR then
    failed = true
  end
  return notify(message, level, ...)
end

local ok, err = pcall(function()
  local config = os.getenv('SOURCECHECK_CONFIG')
  local scenario = os.getenv('SOURCECHECK_SCENARIO')
  local document = os.getenv('SOURCECHECK_DOCUMENT')
  vim.cmd('filetype on')
  if config == 'start_client' then
    vim.opt.runtimepath:append(os.getenv('SOURCECHECK_PLUGIN'))
    require('sourcecheck').setup()
  else
    vim.cmd('luafile ' .. vim.fn.fnameescape(config))
  end
  local sourcecheck = require('sourcecheck')
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SOURCECHECK_FILE')))
  local session = vim.api.nvim_get_current_buf()
  vim.bo[session].filetype = 'json'
  if config == 'start_client' then
    local id = vim.lsp.start_client({
      name = 'sourcecheck',
      cmd = { 'sourcecheck-ls' },
      root_dir = vim.fn.getcwd(),
      handlers = sourcecheck.handlers,
      capabilities = sourcecheck.capabilities(),
    })
    vim.lsp.buf_attach_client(session, id)
  end
  local function client_of(buf)
    local found = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)
    for _, c in pairs(found) do
      if c.name == 'sourcecheck' then
        return c
      end
    end
  end
  out.attached = vim.wait(wait, function()
    local c = client_of(session)
    return c ~= nil and c.initialized ~= false and c.server_capabilities ~= nil
  end, 50)
  if not out.attached then
    return
  end
  out.session_uri = vim.uri_from_bufnr(session)
  out.tempdir = vim.fn.fnamemodify(vim.fn.tempname(), ':h')

  if scenario == 'report' then
    out.opened = {}
    out.has_ui_open = vim.ui.open ~= nil
    if vim.ui.open then
      vim.ui.open = function(path)
        table.insert(out.opened, path)
        return nil, nil
      end
    end
    local log = os.getenv('SOURCECHECK_OPENER_LOG') -- what the xdg-open stand-in writes
    local function opened()
      if #out.opened == 0 and log and vim.fn.filereadable(log) == 1 then
        out.opened = vim.fn.readfile(log)
      end
      return #out.opened > 0 or failed
    end
    vim.cmd('SourceCheckReport')
    vim.wait(wait, opened, 50)
    local path = out.opened[1]
    if path then
      out.path = path
      out.html = table.concat(vim.fn.readfile(path, 'b'), '\n')
    end
    out.remembered = sourcecheck.reports[out.session_uri]
    -- Again: the same file is written again (a browser tab on it shows the new version).
    out.opened = {}
    if log then
      vim.fn.delete(log)
    end
    vim.cmd('SourceCheckReport')
    vim.wait(wait, opened, 50)
    out.again = out.opened[1]
    return
  end

  -- The "cited by N refs" lens above the document.
  if has('0.10') then
    vim.lsp.codelens.refresh({ bufnr = session })
  else
    vim.lsp.codelens.refresh()
  end
  local row
  for i, line in ipairs(vim.api.nvim_buf_get_lines(session, 0, -1, false)) do
    if line:find('"path": "' .. document .. '"', 1, true) then
      row = i - 1
      break
    end
  end
  local lens
  vim.wait(wait, function()
    for _, l in ipairs(vim.lsp.codelens.get(session)) do
      local c = l.command
      if c and c.command == sourcecheck.SHOW_REFERENCES and c.title:find('^cited by %d+ ref') and l.range.start.line <= row and l.range.start.line >= row - 2 then
        lens = l
        return true
      end
    end
    return false
  end, 50)
  out.lenses = {}
  for _, l in ipairs(vim.lsp.codelens.get(session)) do
    if l.command then
      table.insert(out.lenses, { line = l.range.start.line, title = l.command.title, command = l.command.command })
    end
  end
  if not lens then
    return
  end
  out.lens = lens.command
  local select = vim.ui.select -- several lenses on the line: the user picks this one
  vim.ui.select = function(items, opts, on_choice)
    for i, item in ipairs(items) do
      if item.lens and item.lens.command.title == lens.command.title then
        return on_choice(item, i)
      end
    end
    on_choice(nil)
  end
  vim.api.nvim_win_set_cursor(0, { lens.range.start.line + 1, 0 })
  vim.lsp.codelens.run()
  vim.ui.select = select
  vim.wait(wait, function() return #vim.fn.getqflist() > 0 end, 50)
  local info = vim.fn.getqflist({ title = 1, winid = 1 })
  out.qf_title = info.title
  out.qf_open = info.winid ~= 0
  out.qf = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    table.insert(out.qf, { file = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum, col = item.col, text = item.text })
  end
end)
if not ok then
  out.error = tostring(err)
end
finish()
