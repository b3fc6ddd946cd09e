-- Headless Neovim session against dsls, through require("dsls") and Neovim's own LSP
-- client: diagnostics, hover float, preferred quick fix via vim.lsp.buf.code_action,
-- settings changes, and :DslsDiagnose on a log file and on a terminal buffer.
-- Diagnostics (with related information), code actions and edits are compared whole,
-- so a server that drops or moves any of them fails here.
-- Run by run-nvim.sh; prints one line per check and "N passed, M failed".

local dsls_binary = assert(os.getenv("DSLS_BINARY"), "DSLS_BINARY")
local work = assert(os.getenv("DSLS_WORK"), "DSLS_WORK")
local fixtures = assert(os.getenv("DSLS_FIXTURES"), "DSLS_FIXTURES")

vim.cmd("filetype on")
vim.o.swapfile = false
vim.o.shortmess = vim.o.shortmess .. "F"

local t = require("dsls_test")
local out, check, step, copy = t.out, t.check, t.step, t.copy

local config_path = work .. "/ds_config.json"
local log_path = work .. "/train.log"
local config_text = copy(fixtures .. "/ds_config_zero2_race.json", config_path)
local log_text = copy(fixtures .. "/oom_then_timeouts.log", log_path)

local dsls = require("dsls")
-- A release with the race: the race fix is safe there, so fix-all offers it.
dsls.setup({ path = dsls_binary, settings = { rules = {}, deepspeedVersion = "0.14.2" } })

local race = "overlap-comm-race"
local contiguous_title = "Set contiguous_gradients to false (avoids the bucket races, not the allocator race)"

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

-- LSP ranges (0-based lines, UTF-16 columns; the fixtures are ASCII) computed from the text.
local function range(start_line, start_character, end_line, end_character)
  return {
    start = { line = start_line, character = start_character },
    ["end"] = { line = end_line, character = end_character },
  }
end

-- The range of the first `needle` in the buffer.
local function key_range(bufnr, needle)
  local line, col = find_line(bufnr, needle)
  assert(line, needle .. " is in the buffer")
  return range(line - 1, col - 1, line - 1, col - 1 + #needle)
end

-- The range of the `true` after `key` on its line.
local function value_range(bufnr, key)
  local line, col = find_line(bufnr, key)
  local text = vim.api.nvim_buf_get_lines(bufnr, line - 1, line, false)[1]
  local first = assert(text:find("true", col + #key, true), "true follows " .. key)
  return range(line - 1, first - 1, line - 1, first + 3)
end

local function line_range(bufnr, line)
  return range(line, 0, line, #vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1])
end

-- The fields compared exactly, from Neovim's diagnostics and the LSP data it keeps.
local function shape(d)
  local lsp = (d.user_data and d.user_data.lsp) or {}
  local s = {
    code = d.code or lsp.code,
    source = d.source,
    severity = d.severity,
    range = range(d.lnum, d.col, d.end_lnum, d.end_col),
  }
  if lsp.relatedInformation then
    s.related = {}
    for _, r in ipairs(lsp.relatedInformation) do
      table.insert(s.related, { location = r.location, message = r.message })
    end
  end
  return s
end

local function shapes(bufnr)
  return vim.tbl_map(shape, vim.diagnostic.get(bufnr))
end

-- What dsls reports for the fixture config: the race on the overlap_comm key.
local function expected_config(bufnr, severity)
  return {
    {
      code = race,
      source = "dsls",
      severity = severity or vim.diagnostic.severity.WARN,
      range = key_range(bufnr, '"overlap_comm"'),
      related = {
        {
          location = { uri = vim.uri_from_bufnr(bufnr), range = key_range(bufnr, '"contiguous_gradients"') },
          message = "contiguous_gradients = true (set in this file)",
        },
      },
    },
  }
end

-- What dsls reports for the fixture log while the config buffer is open in the same server.
local function expected_log(log_buf, cfg_buf)
  local log_uri = vim.uri_from_bufnr(log_buf)
  local cfg_uri = vim.uri_from_bufnr(cfg_buf)
  local oom = find_line(log_buf, "torch.OutOfMemoryError") - 1
  local collateral = {
    location = { uri = log_uri, range = line_range(log_buf, oom) },
    message = ("initiating failure: GPU out of memory (%s:%d)"):format(log_uri, oom + 1),
  }
  local function config_key(key, name)
    return {
      location = { uri = cfg_uri, range = key_range(cfg_buf, '"' .. key .. '"') },
      message = "config key " .. name .. " in this run's ds_config",
    }
  end
  local expected = {
    {
      code = "log-cuda-oom",
      source = "dsls",
      severity = vim.diagnostic.severity.ERROR,
      range = line_range(log_buf, oom),
      related = { config_key("stage", "zero_optimization.stage"),
        config_key("train_micro_batch_size_per_gpu", "train_micro_batch_size_per_gpu") },
    },
  }
  for i, line in ipairs(vim.api.nvim_buf_get_lines(log_buf, 0, -1, false)) do
    local code = (line:find("Watchdog caught collective operation timeout", 1, true) and "log-nccl-watchdog-timeout")
      or (line:find("exits with return code", 1, true) and "log-worker-exit")
    if code then
      table.insert(expected, { code = code, source = "dsls", severity = vim.diagnostic.severity.INFO,
        range = line_range(log_buf, i - 1), related = { collateral } })
    end
  end
  return expected
end

-- Waits until the buffer's diagnostics are exactly `expected`; the detail shows the last ones.
local function diagnostics_become(name, bufnr, expected)
  local ok = vim.wait(15000, function()
    return vim.deep_equal(shapes(bufnr), expected)
  end, 50)
  return check(name, ok, ("got %s, want %s"):format(vim.inspect(shapes(bufnr)), vim.inspect(expected)))
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
  diagnostics_become("exactly the overlap-comm-race diagnostic arrives, with its related information",
    config_buf, expected_config(config_buf))
  local d = vim.diagnostic.get(config_buf)[1]
  check("its message names both flags", d ~= nil and vim.startswith(d.message,
    "ZeRO stage 2 with overlap_comm = true (set in this file) and contiguous_gradients = true (set in this file): "),
    d and d.message)
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
  local offered, chosen = {}, nil
  local original_select = vim.ui.select
  -- Stands in for the user picking the preferred entry in the code-action menu.
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      -- Items are { client_id, action } up to 0.9 and { ctx, action } from 0.10.
      local action = item.action or item[2]
      local change = action.edit and action.edit.documentChanges and action.edit.documentChanges[1]
      table.insert(offered, {
        title = (opts.format_item and opts.format_item(item)) or action.title,
        kind = action.kind,
        isPreferred = action.isPreferred,
        uri = change and change.textDocument.uri,
        -- A copy: applying the edit annotates the action's own tables.
        edits = change and vim.deepcopy(change.edits),
      })
      if action.isPreferred and not chosen then
        chosen = item
      end
    end
    on_choice(chosen)
  end
  local uri = vim.uri_from_bufnr(config_buf)
  local function fix(title, kind, preferred, key)
    return { title = title, kind = kind, isPreferred = preferred, uri = uri,
      edits = { { range = value_range(config_buf, key), newText = "false" } } }
  end
  local expected = {
    fix("Set overlap_comm to false", "quickfix", true, '"overlap_comm"'),
    fix(contiguous_title, "quickfix", nil, '"contiguous_gradients"'),
    fix("Fix all safe dsls findings", "source.fixAll.dsls", nil, '"overlap_comm"'),
  }
  local expected_text = config_text:gsub('"overlap_comm": true', '"overlap_comm": false', 1):gsub("\n$", "")
  vim.lsp.buf.code_action()
  local changed = vim.wait(10000, function()
    return buffer_string(config_buf) == expected_text
  end, 50)
  vim.ui.select = original_select
  check("the code actions are exactly the two fixes and fix-all, with their edits", vim.deep_equal(offered, expected),
    ("got %s, want %s"):format(vim.inspect(offered), vim.inspect(expected)))
  check("applying the preferred one changes only the overlap_comm value", changed, buffer_string(config_buf))
  diagnostics_become("no diagnostics are left", config_buf, {})
end)

step("settings", function()
  -- Put the race back, then make the rule an error through the settings.
  vim.cmd("silent undo")
  diagnostics_become("undo brings the race diagnostic back", config_buf, expected_config(config_buf))
  dsls.update_settings({ rules = { [race] = "error" } })
  diagnostics_become("rules setting raises the race to an error", config_buf,
    expected_config(config_buf, vim.diagnostic.severity.ERROR))
  dsls.update_settings({ rules = { [race] = "off" } })
  diagnostics_become("rules setting 'off' silences the race", config_buf, {})
  dsls.update_settings({ rules = {} })
  diagnostics_become("default rules bring the warning back", config_buf, expected_config(config_buf))
  -- On 0.19.0-0.19.2 the race needs torch.compile: torchCompile and select reach the server.
  dsls.update_settings({ deepspeedVersion = "0.19.1", select = { race } })
  diagnostics_become("0.19.1 without torch.compile has no race (select keeps only its rule)", config_buf, {})
  dsls.update_settings({ torchCompile = true })
  diagnostics_become("torchCompile = true shows the race on 0.19.1", config_buf, expected_config(config_buf))
  dsls.update_settings({ deepspeedVersion = "0.14.2", torchCompile = vim.NIL, select = vim.NIL })
  diagnostics_become("unset torchCompile and select: back to 0.14.2's warning", config_buf, expected_config(config_buf))
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
  diagnostics_become("the log findings arrive, linked to the config", log_buf, expected_log(log_buf, config_buf))
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
  local job = vim.fn.termopen({ "cat", log_path })
  local term_buf = vim.api.nvim_get_current_buf()
  -- The job's exit comes after its output is read; the buffer may still be refreshed a
  -- moment later, and a narrow terminal hard-wraps lines, so the text is compared unwrapped.
  local exit_code = vim.fn.jobwait({ job }, 30000)[1]
  local function unwrapped()
    return (buffer_string(term_buf):gsub("\n", ""))
  end
  local shown = vim.wait(10000, function()
    return unwrapped():find("Killing subprocess 4103", 1, true) ~= nil
  end, 50)
  check("terminal shows the log", shown, ("job exit %s, window width %d, buffer:\n%s"):format(
    tostring(exit_code), vim.api.nvim_win_get_width(0), buffer_string(term_buf)))
  local report = report_buffer_after(function()
    -- <Esc> ends Visual mode the way a user does, which sets the '< and '> marks.
    vim.cmd("normal! ggVG\27")
    vim.cmd("'<,'>DslsDiagnose")
  end)
  check_report("terminal", report)
end)

step("a shell script that writes a ZeRO-2 config in a heredoc gets the race, once the server runs", function()
  local script_path = work .. "/pretrain.sh"
  copy(fixtures .. "/../../transcripts/fixtures/zero2_overlap.sh", script_path)
  vim.cmd("edit " .. vim.fn.fnameescape(script_path))
  local script_buf = vim.api.nvim_get_current_buf()
  check("the script's filetype is sh", vim.bo[script_buf].filetype == "sh", vim.bo[script_buf].filetype)
  diagnostics_become("the race on the heredoc's overlap_comm key", script_buf, {
    {
      code = race,
      source = "dsls",
      severity = vim.diagnostic.severity.WARN,
      range = key_range(script_buf, '"overlap_comm"'),
      related = {
        {
          location = { uri = vim.uri_from_bufnr(script_buf), range = key_range(script_buf, '"zero_optimization"') },
          message = "contiguous_gradients = true (DeepSpeed default: true since DeepSpeed 0.4.3)",
        },
      },
    },
  })
end)

step("a JSON file that is no ds_config gets no diagnostics", function()
  local project = fixtures .. "/../../fixtures/projects/hf_trainer"
  local state_path = work .. "/trainer_state.json"
  copy(project .. "/output/checkpoint-500/trainer_state.json", state_path)
  vim.cmd("edit " .. vim.fn.fnameescape(state_path))
  local state_buf = vim.api.nvim_get_current_buf()
  local attached = vim.wait(10000, function()
    return #vim.lsp.buf_get_clients(state_buf) > 0
  end, 50)
  check("the JSON buffer is sent to the server", attached)
  -- The server answers a request only after the document's analysis, so any diagnostics are in.
  local answered = false
  vim.lsp.buf_request(state_buf, "textDocument/documentSymbol",
    { textDocument = vim.lsp.util.make_text_document_params(state_buf) }, function() answered = true end)
  vim.wait(10000, function() return answered end, 50)
  vim.wait(500)
  check("trainer_state.json has no diagnostics", answered and #vim.diagnostic.get(state_buf) == 0,
    vim.inspect(vim.diagnostic.get(state_buf)))
  local req_path = work .. "/requirements.txt"
  copy(project .. "/requirements.txt", req_path)
  vim.cmd("edit " .. vim.fn.fnameescape(req_path))
  vim.wait(500)
  check("requirements.txt does not start or attach the server", #vim.lsp.buf_get_clients(0) == 0)
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

t.finish()
