-- Drives a real, headless Neovim through sourcecheck's document view and writes what it saw
-- as JSON. Input (environment): SOURCECHECK_CONFIG (a config file, loaded with :luafile as
-- the README shows, or "start_client" for Neovim 0.7: then editors/neovim is put on
-- 'runtimepath' by hand), SOURCECHECK_FILE (the session), SOURCECHECK_SCENARIO ("view",
-- "lens", "definition" or "uncited"), SOURCECHECK_DOCUMENT (the document to view), SOURCECHECK_SELECT
-- (the text to select and cite in the view), SOURCECHECK_HOVER (a text to hover in the view).
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

local function lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

-- The first code lens of the buffer whose command `matches`, once the server has sent it (nil: none in time).
local function lens_where(buf, matches)
  local found
  vim.wait(wait, function()
    for _, l in ipairs(vim.lsp.codelens.get(buf)) do
      if l.command and matches(l.command) then
        found = l
        return true
      end
    end
    return false
  end, 50)
  return found
end

-- The (0-based) line and byte column of `text` in the buffer, and its byte length.
local function find(buf, text)
  for row, line in ipairs(lines(buf)) do
    local at = line:find(text, 1, true)
    if at then
      return row - 1, at - 1, #text
    end
  end
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
  local view = require('sourcecheck')
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SOURCECHECK_FILE')))
  local session = vim.api.nvim_get_current_buf()
  vim.bo[session].filetype = 'json'
  if config == 'start_client' then -- Neovim 0.7 has neither vim.lsp.start nor vim.lsp.config
    local id = vim.lsp.start_client({
      name = 'sourcecheck',
      cmd = { 'sourcecheck-ls' },
      root_dir = vim.fn.getcwd(),
      handlers = view.handlers,
      capabilities = view.capabilities(),
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
  local client = client_of(session)
  local encoding = client.offset_encoding

  local function current_view()
    local buf = vim.api.nvim_get_current_buf()
    return view.views[buf] and buf or nil
  end
  local function describe(buf)
    out.name = vim.api.nvim_buf_get_name(buf)
    out.uri = vim.uri_from_bufnr(buf)
    out.expected_uri = view.views[buf].uri
    out.options = {
      buftype = vim.bo[buf].buftype,
      bufhidden = vim.bo[buf].bufhidden,
      modifiable = vim.bo[buf].modifiable,
      swapfile = vim.bo[buf].swapfile,
      filetype = vim.bo[buf].filetype,
    }
    out.lines = lines(buf)
    out.view_attached = client_of(buf) ~= nil
  end

  if scenario == 'uncited' then -- the "K uncited passages" lens, run: the quickfix list it fills
    vim.lsp.codelens.refresh({ bufnr = session })
    local lens = lens_where(session, function(command)
      return command.title:find('uncited passage', 1, true) ~= nil
    end)
    if not lens then
      return
    end
    out.lens = lens.command.title
    vim.ui.select = function(items, opts, on_choice) -- the user picks this lens of its line
      for i, item in ipairs(items) do
        local command = (item.lens and item.lens.command) or item.command or item -- 0.11: { client, lens }
        if command.title == lens.command.title then
          return on_choice(item, i)
        end
      end
      on_choice(nil, nil)
    end
    local show = vim.lsp.commands['sourcecheck.showReferences']
    vim.lsp.commands['sourcecheck.showReferences'] = function(command, ctx) -- what it was given, and any error
      out.ran = { locations = #((command.arguments or {})[3] or {}) }
      local done, failed = pcall(show, command, ctx)
      out.ran.error = (not done) and tostring(failed) or nil
    end
    vim.api.nvim_win_set_cursor(0, { lens.range.start.line + 1, 0 })
    local mapping = os.getenv('SOURCECHECK_LENS_MAPPING') -- the README's: defined, then pressed
    if mapping and mapping ~= '' then
      local before = {}
      for _, map in ipairs(vim.api.nvim_get_keymap('n')) do
        before[map.lhs] = true
      end
      assert(load(mapping))()
      for _, map in ipairs(vim.api.nvim_get_keymap('n')) do
        if not before[map.lhs] then
          out.mapped = map.lhs
        end
      end
      if not out.mapped then
        return
      end
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(out.mapped, true, false, true), 'x', false)
    else
      vim.lsp.codelens.run()
    end
    vim.wait(wait, function() return #vim.fn.getqflist() > 0 end, 50)
    out.quickfix = {}
    for _, item in ipairs(vim.fn.getqflist()) do
      table.insert(out.quickfix, { lnum = item.lnum, col = item.col, text = item.text, name = vim.api.nvim_buf_get_name(item.bufnr) })
    end
    return
  end
  if scenario == 'lens' then
    if has('0.10') then
      vim.lsp.codelens.refresh({ bufnr = session })
    else
      vim.lsp.codelens.refresh()
    end
    local lens = lens_where(session, function(command)
      return command.command == view.OPEN_VIEW and command.arguments[1]:find(document, 1, true) ~= nil
    end)
    if not lens then
      return
    end
    out.lens = lens.command
    vim.api.nvim_win_set_cursor(0, { lens.range.start.line + 1, 0 })
    vim.lsp.codelens.run() -- as a user does on the lens's line
  elseif scenario == 'definition' then
    local row, col = find(session, '"path": "' .. document .. '"')
    vim.api.nvim_win_set_cursor(0, { row + 1, col + 10 })
    vim.lsp.buf.definition()
  else
    vim.cmd('SourceCheckView ' .. document)
  end
  local buf
  vim.wait(wait, function()
    buf = current_view()
    return buf ~= nil and #lines(buf) > 1
  end, 50)
  if not buf then
    out.current = vim.api.nvim_buf_get_name(0)
    return
  end
  describe(buf)
  vim.wait(wait, function() return client_of(buf) ~= nil end, 50)
  out.view_attached = client_of(buf) ~= nil
  if scenario ~= 'view' then
    return
  end

  -- The marks: the semantic tokens at a cited character, and what is highlighted.
  local function tokens_at(row, col)
    if vim.lsp.semantic_tokens and vim.lsp.semantic_tokens.get_at_pos then
      local found = {}
      for _, token in ipairs(vim.lsp.semantic_tokens.get_at_pos(buf, row, col) or {}) do
        local modifiers = vim.tbl_keys(token.modifiers)
        table.sort(modifiers)
        table.insert(found, { type = token.type, modifiers = modifiers })
      end
      return found
    end
    local found = {} -- painted by the module (no semantic tokens in this Neovim)
    local ns = vim.api.nvim_create_namespace('sourcecheck.view')
    for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, { row, 0 }, { row, -1 }, { details = true })) do
      if mark[3] <= col and mark[4].end_col > col then
        table.insert(found, { group = mark[4].hl_group })
      end
    end
    return found
  end
  local function highlights()
    pcall(vim.cmd, 'redraw')
    local found = {}
    for name, ns in pairs(vim.api.nvim_get_namespaces()) do
      if name:find('semantic_tokens') or name == 'sourcecheck.view' then
        for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
          local d = mark[4]
          local line = lines(buf)[mark[2] + 1] or ''
          table.insert(found, { line = mark[2] + 1, text = line:sub(mark[3] + 1, d.end_col), group = d.hl_group })
        end
      end
    end
    return found
  end
  local hover_text = os.getenv('SOURCECHECK_HOVER')
  local hrow, hcol = find(buf, hover_text)
  vim.wait(wait, function() return #tokens_at(hrow, hcol) > 0 end, 50)
  out.tokens = tokens_at(hrow, hcol)
  out.highlights = highlights()
  out.styles = {} -- what the groups of the marks look like (a link followed)
  for _, name in ipairs({ 'claim', 'supports', 'refutes' }) do
    for _, group in ipairs({ '@lsp.mod.' .. name, '@lsp.type.' .. name }) do
      local okay, spec = pcall(vim.api.nvim_get_hl_by_name, group, true)
      local style = {}
      for key, value in pairs(okay and spec or {}) do
        if value == true then
          table.insert(style, key)
        end
      end
      table.sort(style)
      out.styles[group] = style
    end
  end

  -- Hover on the cited character.
  vim.api.nvim_win_set_cursor(0, { hrow + 1, hcol })
  local params = vim.lsp.util.make_position_params(0, encoding)
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 10000)
  for _, response in pairs(hover or {}) do
    if response.result and response.result.contents then
      out.hover = response.result.contents.value or response.result.contents
    end
  end

  -- Select a span in the view (visual mode) and ask for code actions on it.
  local function errors()
    if client.server_capabilities.diagnosticProvider then
      local answer = vim.lsp.buf_request_sync(session, 'textDocument/diagnostic', {
        textDocument = { uri = vim.uri_from_bufnr(session) },
      }, 10000)
      local found = {}
      for _, response in pairs(answer or {}) do
        for _, d in ipairs(response.result and response.result.items or {}) do
          if d.severity == 1 then
            table.insert(found, d.code)
          end
        end
      end
      return found
    end
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(session, { severity = vim.diagnostic.severity.ERROR })) do
      table.insert(found, d.code or d.message)
    end
    return found
  end
  out.errors_before = errors()
  local selected = os.getenv('SOURCECHECK_SELECT')
  local srow, scol, slen = find(buf, selected)
  vim.api.nvim_win_set_cursor(0, { srow + 1, scol })
  vim.cmd('normal! v' .. (slen > 1 and tostring(slen - 1) .. 'l' or ''))
  vim.cmd('normal! \27')
  local range = vim.lsp.util.make_given_range_params(nil, nil, buf, encoding)
  out.range = range.range
  range.context = { diagnostics = {} }
  local answer = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', range, 10000)
  out.actions = {}
  local chosen
  for _, response in pairs(answer or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(out.actions, action.title)
      if not chosen and action.edit and action.title:find('as a source that supports', 1, true) then
        chosen = action
      end
    end
  end
  if not chosen then
    return
  end
  out.chosen = chosen.title
  local refreshed = view.refreshed[out.uri] or 0
  vim.lsp.util.apply_workspace_edit(chosen.edit, encoding)
  out.session_text = table.concat(lines(session), '\n')
  out.errors_after = errors()

  -- The server refreshes the view after the session changed: the new source is marked.
  out.refreshed = vim.wait(wait, function() return (view.refreshed[out.uri] or 0) > refreshed end, 50)
  out.new_marked = vim.wait(wait, function() return #tokens_at(srow, scol) > 0 end, 50)
  out.new_tokens = tokens_at(srow, scol)
  out.lines_after = lines(buf)
  out.modifiable_after = vim.bo[buf].modifiable
end)
if not ok then
  out.error = tostring(err)
end
finish()
