-- Headless Neovim session against dsls, through require("dsls") and Neovim's own LSP
-- client: diagnostics, hover float, preferred quick fix via vim.lsp.buf.code_action,
-- settings changes, and :DslsDiagnose on a log file and on a terminal buffer.
-- Run by run-nvim.sh; prints one line per check and "N passed, M failed".

local dsls_binary = assert(os.getenv("DSLS_BINARY"), "DSLS_BINARY")
local work = assert(os.getenv("DSLS_WORK"), "DSLS_WORK")
local fixtures = assert(os.getenv("DSLS_FIXTURES"), "DSLS_FIXTURES")

vim.cmd("filetype on")
vim.o.swapfile = false
vim.o.shortmess = vim.o.shortmess .. "F"

local passed, failed = 0, 0
local function out(line)
  io.stdout:write(line .. "\n")
  io.stdout:flush()
end

local function check(name, ok, detail)
  if ok then
    passed = passed + 1
    out("ok     " .. name)
  else
    failed = failed + 1
    out("FAILED " .. name .. (detail and (": " .. detail) or ""))
  end
  return ok
end

-- Runs one step; an error counts as a failed check instead of ending the session.
local function step(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if not ok then
    check(name, false, tostring(err))
  end
end

local function copy(from, to)
  local src = assert(io.open(from, "r"))
  local text = src:read("*a")
  src:close()
  local dst = assert(io.open(to, "w"))
  dst:write(text)
  dst:close()
  return text
end

local config_path = work .. "/ds_config.json"
local log_path = work .. "/train.log"
copy(fixtures .. "/ds_config_zero2_race.json", config_path)
local log_text = copy(fixtures .. "/oom_then_timeouts.log", log_path)

local dsls = require("dsls")
dsls.setup({ path = dsls_binary, settings = { rules = {} } })

local race = "overlap-comm-race"
local function race_diagnostics(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == race or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == race) then
      table.insert(found, d)
    end
  end
  return found
end

local function buffer_string(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n")
end

local function find_line(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return i, col
    end
  end
end

vim.cmd("edit " .. vim.fn.fnameescape(config_path))
local config_buf = vim.api.nvim_get_current_buf()

step("client attaches to the ds_config buffer", function()
  local attached = vim.wait(10000, function()
    return #vim.lsp.buf_get_clients(config_buf) > 0
  end, 50)
  check("client attaches to the ds_config buffer", attached, "filetype=" .. vim.bo[config_buf].filetype)
end)

step("overlap-comm-race diagnostic", function()
  local got = vim.wait(15000, function()
    return #race_diagnostics(config_buf) > 0
  end, 50)
  local d = race_diagnostics(config_buf)[1]
  check("overlap-comm-race diagnostic arrives", got, vim.inspect(vim.diagnostic.get(config_buf)))
  if d then
    check("diagnostic source is dsls", d.source == "dsls", tostring(d.source))
    local key_line = find_line(config_buf, '"overlap_comm"')
    check("diagnostic is on the overlap_comm line", d.lnum + 1 <= key_line and key_line <= d.end_lnum + 1,
      ("lnum %d..%d, key line %d"):format(d.lnum + 1, d.end_lnum + 1, key_line))
  end
end)

step("hover", function()
  local line, col = find_line(config_buf, '"overlap_comm"')
  vim.api.nvim_win_set_cursor(0, { line, col + 2 })
  vim.lsp.buf.hover()
  local float_text
  vim.wait(10000, function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= "" then
        float_text = buffer_string(vim.api.nvim_win_get_buf(win))
        return true
      end
    end
    return false
  end, 50)
  check("hover float opens", float_text ~= nil)
  check("hover explains the overlap_comm race",
    float_text ~= nil and float_text:find("overlap_comm", 1, true) ~= nil and float_text:lower():find("race") ~= nil,
    float_text)
  -- Close the float so later windows are the ones under test.
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then
      vim.api.nvim_win_close(win, true)
    end
  end
end)

step("quick fix", function()
  local line = find_line(config_buf, '"overlap_comm"')
  vim.api.nvim_win_set_cursor(0, { line, 6 })
  local titles, chosen = {}, nil
  local original_select = vim.ui.select
  -- Stands in for the user picking the preferred entry in the code-action menu.
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      local action = item[2]
      table.insert(titles, (opts.format_item and opts.format_item(item)) or action.title)
      if action.isPreferred and not chosen then
        chosen = item
      end
    end
    on_choice(chosen)
  end
  vim.lsp.buf.code_action()
  local changed = vim.wait(10000, function()
    return buffer_string(config_buf):find('"overlap_comm"%s*:%s*false') ~= nil
  end, 50)
  vim.ui.select = original_select
  local has_contiguous = false
  for _, t in ipairs(titles) do
    -- The second fix may add a note after the title the contract fixes.
    has_contiguous = has_contiguous or vim.startswith(t, "Set contiguous_gradients to false")
  end
  check("code actions include both fixes",
    vim.tbl_contains(titles, "Set overlap_comm to false") and has_contiguous, table.concat(titles, " | "))
  check("the preferred action is 'Set overlap_comm to false'", chosen ~= nil and chosen[2].title == "Set overlap_comm to false",
    chosen and chosen[2].title or "none preferred")
  check("applying it changes the buffer", changed, buffer_string(config_buf))
  check("contiguous_gradients is left alone", buffer_string(config_buf):find('"contiguous_gradients"%s*:%s*true') ~= nil)
  local cleared = vim.wait(10000, function()
    return #race_diagnostics(config_buf) == 0
  end, 50)
  check("the race diagnostic goes away", cleared, vim.inspect(race_diagnostics(config_buf)))
end)

step("settings", function()
  -- Put the race back, then make the rule an error through the settings.
  vim.cmd("silent undo")
  local back = vim.wait(10000, function()
    return #race_diagnostics(config_buf) > 0
  end, 50)
  check("undo brings the race diagnostic back", back)
  dsls.update_settings({ rules = { [race] = "error" } })
  local as_error = vim.wait(10000, function()
    local d = race_diagnostics(config_buf)[1]
    return d ~= nil and d.severity == vim.diagnostic.severity.ERROR
  end, 50)
  check("rules setting raises the race to an error", as_error, vim.inspect(race_diagnostics(config_buf)))
  dsls.update_settings({ rules = { [race] = "off" } })
  local off = vim.wait(10000, function()
    return #race_diagnostics(config_buf) == 0
  end, 50)
  check("rules setting 'off' silences the race", off)
  dsls.update_settings({ rules = {} })
end)

local function report_buffer_after(action)
  local before = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    before[b] = true
  end
  action()
  local report
  vim.wait(15000, function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if not before[b] and vim.api.nvim_buf_get_name(b):find("dsls://diagnosis", 1, true) then
        report = b
        return true
      end
    end
    return false
  end, 50)
  return report
end

local function check_report(label, bufnr)
  check(label .. ": report buffer opens", bufnr ~= nil)
  if not bufnr then
    return
  end
  local text = buffer_string(bufnr)
  check(label .. ": report is markdown", vim.bo[bufnr].filetype == "markdown")
  check(label .. ": report names rank 3", text:find("[Rr]ank 3") ~= nil or text:find("rank3", 1, true) ~= nil, text)
  check(label .. ": the SVG is replaced by a saved timeline", not text:find("<svg", 1, true) and not text:find("data:image/svg", 1, true)
    and vim.b[bufnr].dsls_timeline ~= nil and vim.fn.filereadable(vim.b[bufnr].dsls_timeline) == 1, text)
end

step(":DslsDiagnose on a log selection", function()
  vim.cmd("edit " .. vim.fn.fnameescape(log_path))
  local log_buf = vim.api.nvim_get_current_buf()
  local attached = vim.wait(10000, function()
    return #vim.lsp.buf_get_clients(log_buf) > 0
  end, 50)
  check("log buffer is attached", attached)
  local _, client = next(vim.lsp.buf_get_clients(log_buf))
  check("log buffer is sent as languageId log",
    client ~= nil and client.config.get_language_id(log_buf, vim.bo[log_buf].filetype) == "log")
  local report = report_buffer_after(function()
    -- <Esc> ends Visual mode the way a user does, which sets the '< and '> marks.
    vim.cmd("normal! ggVG\27")
    vim.cmd("'<,'>DslsDiagnose")
  end)
  check_report("log file", report)
end)

step(":DslsDiagnose in a terminal buffer", function()
  -- A terminal wraps long lines at its width; a wide one keeps log lines whole.
  vim.o.columns = 300
  vim.cmd("enew")
  vim.fn.termopen({ "cat", log_path })
  local term_buf = vim.api.nvim_get_current_buf()
  local shown = vim.wait(10000, function()
    return buffer_string(term_buf):find("Killing subprocess 4103", 1, true) ~= nil
  end, 50)
  check("terminal shows the log", shown)
  local report = report_buffer_after(function()
    -- <Esc> ends Visual mode the way a user does, which sets the '< and '> marks.
    vim.cmd("normal! ggVG\27")
    vim.cmd("'<,'>DslsDiagnose")
  end)
  check_report("terminal", report)
end)

step("report helpers", function()
  local report = require("dsls.report")
  local svg = "<svg xmlns='http://www.w3.org/2000/svg'><rect/></svg>"
  local b64 = "PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnPjxyZWN0Lz48L3N2Zz4="
  check("base64 SVG data URIs decode", report.svg_from_data_uri("data:image/svg+xml;base64," .. b64) == svg)
  check("percent-encoded SVG data URIs decode", report.svg_from_data_uri("data:image/svg+xml;utf8,%3Csvg%3E%3C/svg%3E") == "<svg></svg>")
  local md = report.render({ findings = { { id = "x", title = "T", initiatingRank = 1, collateralRanks = { 0 }, configKeys = { "a.b", "a.b" } } } }, {})
  check("findings render without server markdown", md:find("Initiating rank 1; collateral ranks 0.", 1, true) ~= nil, md)
  local _, count = md:gsub("`a%.b`", "")
  check("config keys are listed once", count == 1, md)
end)

for _, client in ipairs(vim.lsp.get_active_clients()) do
  client.stop()
end
vim.wait(3000, function()
  return #vim.lsp.get_active_clients() == 0
end, 50)
out(("%d passed, %d failed"):format(passed, failed))
vim.cmd(failed == 0 and "qall!" or "cquit! 1")
