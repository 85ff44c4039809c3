-- Files written beside an open session, in a real, headless Neovim with editors/neovim as a
-- plugin and a stand-in server (SOURCECHECK_SERVER: a command, as JSON) that records what it
-- is sent. The session and its files are in SOURCECHECK_FOLDER; SOURCECHECK_OUTSIDE is a file
-- outside it. SOURCECHECK_WATCH=1: the client announces dynamic registration for watched
-- files (the server then registers a watcher of its own). Writes what it did as JSON.
local wait = tonumber(os.getenv('SOURCECHECK_WAIT_MS') or '15000')
local out = { steps = {} }
local ok, err = pcall(function()
  vim.opt.runtimepath:append(os.getenv('SOURCECHECK_PLUGIN'))
  vim.cmd('runtime! plugin/sourcecheck.lua')
  vim.cmd('filetype on')
  local config = { cmd = vim.fn.json_decode(os.getenv('SOURCECHECK_SERVER')) }
  if os.getenv('SOURCECHECK_WATCH') == '1' then
    config.capabilities = { workspace = { didChangeWatchedFiles = { dynamicRegistration = true } } }
  end
  vim.lsp.config('sourcecheck', config)
  local folder = os.getenv('SOURCECHECK_FOLDER')
  local function edit(name)
    vim.cmd('edit ' .. vim.fn.fnameescape(name:sub(1, 1) == '/' and name or folder .. '/' .. name))
    return vim.api.nvim_get_current_buf()
  end
  local session = edit('session.sourcecheck.json')
  out.attached = vim.wait(wait, function()
    local client = vim.lsp.get_clients({ bufnr = session, name = 'sourcecheck' })[1]
    if not client or not client.initialized then
      return false
    end
    return os.getenv('SOURCECHECK_WATCH') ~= '1' or #((client.registrations or {})['workspace/didChangeWatchedFiles'] or {}) > 0
  end, 50)
  if not out.attached then
    return
  end
  local function step(name, action)
    action()
    vim.wait(300)
    table.insert(out.steps, name)
  end
  step('write notes.rst', function()
    edit('notes.rst')
    vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'A line added.' })
    vim.cmd('write')
  end)
  step('write new.rst', function()
    edit('new.rst')
    vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'A new file.' })
    vim.cmd('write')
  end)
  step('write the outside file', function()
    edit(os.getenv('SOURCECHECK_OUTSIDE'))
    vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'Elsewhere.' })
    vim.cmd('write')
  end)
  step('write the session', function()
    vim.cmd('buffer ' .. session)
    vim.cmd('write')
  end)
  step('write article.md', function()
    local article = edit('article.md')
    -- Markdown beside a session: the client attaches (the server has its text from then on)
    out.article_attached = vim.wait(wait, function()
      return #vim.lsp.get_clients({ bufnr = article, name = 'sourcecheck' }) > 0
    end, 50)
    vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'More of the article.' })
    vim.cmd('write')
  end)
  -- `name`, open in the current buffer, changed by another program and found by :checktime
  local function changed_on_disk(name)
    vim.bo.autoread = true
    vim.wait(1100) -- a new modification time
    local file = assert(io.open(folder .. '/' .. name, 'a'))
    file:write('Changed by another program.\n')
    file:close()
    vim.cmd('checktime')
  end
  step('article.md changed on disk', function()
    changed_on_disk('article.md')
  end)
  step('notes.rst changed on disk', function()
    edit('notes.rst')
    changed_on_disk('notes.rst')
  end)
  step('notes.rst deleted', function()
    edit('notes.rst')
    os.remove(folder .. '/notes.rst')
    pcall(vim.cmd, 'checktime') -- E211: File "notes.rst" no longer available
  end)
  vim.wait(1500) -- for a watcher of Neovim's own, had the server registered one
end)
if not ok then
  out.error = tostring(err)
end
io.stdout:write(vim.fn.json_encode(out))
vim.cmd('qa!')
