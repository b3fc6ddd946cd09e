-- What the headless Neovim sessions against dsls share (run-nvim.sh puts this folder on the
-- runtimepath): checks counted and printed one a line, steps whose error counts as a failed
-- check, fixture copies, and the end of a session (clients stopped, "N passed, M failed", exit
-- status).
local M = { passed = 0, failed = 0 }

function M.out(line)
  io.stdout:write(line .. "\n")
  io.stdout:flush()
end

function M.check(name, ok, detail)
  if ok then
    M.passed = M.passed + 1
    M.out("ok     " .. name)
  else
    M.failed = M.failed + 1
    M.out("FAILED " .. name .. (detail and (": " .. detail) or ""))
  end
  return ok
end

-- Runs one step; an error counts as a failed check instead of ending the session.
function M.step(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if not ok then
    M.check(name, false, tostring(err))
  end
end

-- Copies a fixture file; returns its text.
function M.copy(from, to)
  local src = assert(io.open(from, "r"))
  local text = src:read("*a")
  src:close()
  local dst = assert(io.open(to, "w"))
  dst:write(text)
  dst:close()
  return text
end

-- Stops the language clients, prints the totals and quits: status 0 when no check failed.
function M.finish()
  for _, client in ipairs(vim.lsp.get_active_clients()) do
    client.stop()
  end
  vim.wait(3000, function()
    return #vim.lsp.get_active_clients() == 0
  end, 50)
  M.out(("%d passed, %d failed"):format(M.passed, M.failed))
  vim.cmd(M.failed == 0 and "qall!" or "cquit! 1")
end

return M
