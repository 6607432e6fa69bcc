-- Neovim (0.7+) headless end-to-end test of `beagle lsp`, run by tests/nvim/run.sh:
--   BEAGLE_BIN=... BEAGLE_WS=<copy of fixtures/fileshare> nvim --headless --clean -c "luafile e2e.lua"
-- Neovim's own client and default handlers: hover, code actions, executeCommand, then the
-- analysis's workspace/applyEdit edits the buffer. Prints ok/FAIL lines; exits 1 on failure.
local bin = assert(os.getenv('BEAGLE_BIN'), 'BEAGLE_BIN')
local ws = assert(os.getenv('BEAGLE_WS'), 'BEAGLE_WS')
local file = ws .. '/model/fileshare.repository'
local out = function(s) io.stdout:write(s .. '\n') end
local passed, failed = 0, 0
local function check(name, ok, detail)
  out((ok and 'ok   ' or 'FAIL ') .. name .. (detail and ('  ' .. tostring(detail):sub(1, 300)) or ''))
  if ok then passed = passed + 1 else failed = failed + 1 end
  return ok
end
local function finish()
  out(string.format('nvim: %d passed, %d failed', passed, failed))
  vim.lsp.stop_client(vim.lsp.get_active_clients())
  vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
  vim.cmd(failed == 0 and 'qa!' or 'cquit! 1')
end

local progress, messages = {}, {}
local handlers = {
  ['$/progress'] = function(err, result, ctx, config)
    table.insert(progress, result.value)
    return vim.lsp.handlers['$/progress'](err, result, ctx, config)
  end,
  ['window/showMessage'] = function(_, result)
    table.insert(messages, result.message)
    out('showMessage: ' .. result.message)
  end,
  -- Never block on a prompt in headless mode (trustedWorkspace is set, so it should not come).
  ['window/showMessageRequest'] = function(_, result)
    table.insert(messages, 'asked: ' .. result.message)
    return vim.NIL
  end,
}

local id = vim.lsp.start_client({
  name = 'beagle',
  cmd = { bin, 'lsp' },
  root_dir = ws,
  workspace_folders = { { uri = vim.uri_from_fname(ws), name = 'fileshare' } },
  init_options = { trustedWorkspace = true, geneticProgramming = false, repetitions = 1, seed = 1 },
  handlers = handlers,
})
vim.cmd('edit ' .. file)
vim.lsp.buf_attach_client(0, id)
local client = vim.lsp.get_client_by_id(id)
if not check('initialized', vim.wait(15000, function() return client.initialized end, 50)) then
  return finish()
end

local function line_of(needle)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    local col = l:find(needle, 1, true)
    if col then return i - 1, col end
  end
end
local uri = vim.uri_from_bufnr(0)

-- Hover on an internal action.
local line, col = line_of('entityName="partition files"')
local params = { textDocument = { uri = uri }, position = { line = line, character = col } }
local res = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 10000)
local hover = res and res[id] and res[id].result
local text = hover and hover.contents and hover.contents.value or ''
check('hover names the internal action', text:find('partition files', 1, true) ~= nil, text)

-- Code actions at it.
local ca = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', {
  textDocument = { uri = uri },
  range = { start = params.position, ['end'] = params.position },
  context = { diagnostics = {} },
}, 10000)
local titles, analyse = {}, nil
for _, a in ipairs(ca and ca[id] and ca[id].result or {}) do
  table.insert(titles, a.title)
  if a.title == 'Beagle: Analyse repository' then analyse = a end
end
check('code actions offer "Beagle: Analyse repository"', analyse ~= nil, table.concat(titles, ' | '))
if not analyse then return finish() end

-- Execute it: the server reports progress and sends workspace/applyEdit, which Neovim's default
-- handler applies to the buffer.
local ex = client.request_sync('workspace/executeCommand', analyse.command, 10000, 0)
check('executeCommand queues the analysis', ex and ex.result and ex.result.queued == true, vim.inspect(ex))
local law = 'specification="files.NUMBER_OF_ELEMENTS - alreadyCompressed.NUMBER_OF_ELEMENTS"'
local function ended()
  for _, v in ipairs(progress) do if v.kind == 'end' then return v end end
end
vim.wait(240000, function() return ended() ~= nil and line_of(law) ~= nil end, 200)
local e = ended()
check('progress begin .. end', e ~= nil and progress[1].kind == 'begin', e and e.message)
check('progress ended done', e ~= nil and e.message:sub(1, 4) == 'done', e and e.message)
check('the buffer holds the fitted law (applyEdit)', line_of(law) ~= nil)
check('the buffer holds data.BYTESIZE + 16', line_of('specification="data.BYTESIZE + 16"') ~= nil)
check('the buffer is modified, not saved', vim.bo.modified)
local asked = false
for _, m in ipairs(messages) do if m:find('^asked') then asked = true end end
check('a trusted workspace is not asked about', not asked)

-- Hover after the analysis shows the fitted expression.
line, col = line_of('entityName="file loop"')
res = vim.lsp.buf_request_sync(0, 'textDocument/hover',
  { textDocument = { uri = uri }, position = { line = line, character = col } }, 10000)
text = res and res[id] and res[id].result and res[id].result.contents.value or ''
check('hover shows the loop law', text:find('files.NUMBER_OF_ELEMENTS', 1, true) ~= nil, text)
finish()
