-- Drives Neovim's built-in LSP client (Neovim 0.7) against `warplint lsp` headless. The
-- client is started by docs/editors.md's init.lua (nvim-lsp.sh passes it with -u) when
-- the CUDA file is opened; this script waits for the diagnostics, hovers on a launch,
-- edits and :writes, waits for the moved diagnostics, and stops the client. It writes
-- what it saw to $LSP_OUT and quits with status 0, or 1 when something did not arrive.
local out = assert(io.open(os.getenv('LSP_OUT'), 'w'))
local function say(...) out:write(string.format(...) .. '\n') out:flush() end

local function main()
  local buf = vim.api.nvim_get_current_buf()
  say('filetype %s', vim.bo[buf].filetype)
  local id
  vim.wait(30000, function()
    for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
      if c.name == 'warplint' then id = c.id end
    end
    return id ~= nil
  end, 50)
  if not id then say('FAIL no warplint client attached to the buffer') return false end

  local function wait_diagnostics(pred)
    return vim.wait(180000, function()
      local d = vim.diagnostic.get(buf)
      return #d > 0 and pred(d)
    end, 50)
  end
  local function dump(tag)
    local d = vim.diagnostic.get(buf)
    table.sort(d, function(a, b) return a.lnum < b.lnum end)
    for _, x in ipairs(d) do
      local code = x.user_data and x.user_data.lsp and x.user_data.lsp.code or ''
      say('%s %d:%d severity=%d source=%s code=%s %s', tag, x.lnum, x.col, x.severity,
          x.source or '', code, x.message)
    end
  end

  if not wait_diagnostics(function(d) return #d >= 2 end) then
    say('FAIL no diagnostics') return false
  end
  dump('open')

  vim.api.nvim_win_set_cursor(0, { 19, 4 })
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
                                       vim.lsp.util.make_position_params(), 60000)
  local hover = res and res[id] and res[id].result
  if hover then
    for line in hover.contents.value:gmatch('[^\n]+') do say('hover %s', line) end
  else
    say('FAIL no hover')
  end

  -- Two lines above run(): :write sends didChange and didSave; the findings move.
  local first = vim.diagnostic.get(buf)[1].lnum
  vim.api.nvim_buf_set_lines(buf, 15, 15, false, { '// moved', '// down' })
  vim.cmd('write')
  if not wait_diagnostics(function(d)
        for _, x in ipairs(d) do if x.lnum < 18 then return false end end
        return true
      end) then
    say('FAIL diagnostics did not move after :write (first at %d)', first) return false
  end
  dump('saved')
  vim.lsp.stop_client(id)
  vim.wait(5000, function() return vim.lsp.client_is_stopped(id) end, 50)
  say('stopped %s', tostring(vim.lsp.client_is_stopped(id)))
  return true
end

local ok, result = pcall(main)
if not ok then say('FAIL error %s', tostring(result)) end
out:close()
vim.cmd((ok and result) and 'qall!' or 'cquit 1')
