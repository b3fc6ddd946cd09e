-- Neovim client for dsls, the DeepSpeed language server.
--
--   require("dsls").setup({ settings = { deepspeedVersion = "0.16.4", worldSize = 8 } })
--
-- Starts dsls for DeepSpeed config JSON buffers and training-log buffers, sends the
-- settings as initializationOptions and as the `dsls` section of
-- workspace/configuration, and adds :DslsDiagnose for a selection of log lines (in
-- any buffer, terminal buffers included). Works with Neovim 0.7 (vim.lsp.start_client)
-- and later (vim.lsp.start).

local report = require("dsls.report")
local settings_table = require("dsls.settings_table")

local M = {}

M.defaults = {
  -- Command that starts the server; `path` alone is a shortcut for { path, "--stdio" }.
  cmd = nil,
  path = "dsls",
  -- The server's settings (lua/dsls/settings_table.lua lists them; docs/editors.md explains
  -- them), e.g. deepspeedVersion = "0.16.4", rules = { ["overlap-comm-race"] = "error" }.
  -- Unset ones are not sent.
  settings = {},
  -- Also send other JSON buffers; the server decides which are ds_configs.
  detect_by_content = true,
  -- File-name globs of training logs (buffers with filetype "log" always count). "*.txt" is
  -- left out: most text files (requirements.txt) are no logs; add it, or set filetype=log.
  log_globs = { "*.log", "*.out", "*.err" },
  root_markers = { ".git", "pyproject.toml", "setup.py", "setup.cfg" },
  on_attach = nil,
  capabilities = nil,
  -- Where the report of :DslsDiagnose opens: "split", "vsplit" or "tab".
  report_window = "split",
}

local options = vim.deepcopy(M.defaults)
-- Neovim 0.7 has no vim.lsp.start: clients are tracked here by root folder.
local clients_by_root = {}
local detached_client_id = nil

local has_011 = vim.fn.has("nvim-0.11") == 1

-- Client methods became `client:request()` in 0.11; earlier they are plain fields.
local function client_request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function client_notify(client, method, params)
  if has_011 then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

local function client_stop(client)
  if has_011 then
    return client:stop()
  end
  return client.stop()
end

local function client_stopped(client)
  if has_011 then
    return client:is_stopped()
  end
  return client.is_stopped()
end

local function basename(path)
  return vim.fn.fnamemodify(path, ":t")
end

-- A glob without "/" matches the file name; one with "/" matches the end of the path.
local function glob_matches(glob, path)
  if path == nil or path == "" then
    return false
  end
  local subject = glob:find("/", 1, true) and path or basename(path)
  local pattern = glob
  if glob:find("/", 1, true) then
    pattern = "**/" .. (glob:gsub("^%*%*/", ""))
  end
  return vim.fn.match(subject, vim.fn.glob2regpat(pattern)) >= 0
end

local function any_glob_matches(globs, path)
  for _, glob in ipairs(globs or {}) do
    if glob_matches(glob, path) then
      return true
    end
  end
  return false
end

local function buffer_text(bufnr, max_lines)
  local last = max_lines and math.min(max_lines, vim.api.nvim_buf_line_count(bufnr)) or -1
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, last, false), "\n")
end

-- JSON buffers are sent to the server, which decides whether they are ds_configs (and
-- publishes nothing for those that are not). Without detect_by_content, only buffers whose
-- name matches configGlobs are sent.
function M.is_config_buffer(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local ft = vim.bo[bufnr].filetype
  if ft ~= "json" and ft ~= "jsonc" then
    return false
  end
  if options.detect_by_content then
    return true
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  return any_glob_matches(settings_table.builtin_config_globs, name)
    or any_glob_matches(options.settings.configGlobs or {}, name)
end

function M.is_log_buffer(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].buftype ~= "" then
    return false -- terminal and scratch buffers are diagnosed on request only
  end
  if vim.bo[bufnr].filetype == "log" then
    return true
  end
  return any_glob_matches(options.log_globs, vim.api.nvim_buf_get_name(bufnr))
end

-- The flat settings object of the server contract, without unset keys. Values go as the user
-- wrote them: the server checks them and says what is wrong with one.
function M.server_settings()
  local s = options.settings
  local out = vim.empty_dict()
  for _, setting in ipairs(settings_table.settings) do
    local value = s[setting.key]
    if value ~= nil and value ~= "" and value ~= vim.NIL then
      -- An empty Lua table would be sent as a JSON array; these two are objects.
      local object = setting.type == "rule-levels" or setting.type == "glob-launchers"
      if object and type(value) == "table" and next(value) == nil then
        value = vim.empty_dict()
      end
      out[setting.key] = value
    end
  end
  return out
end

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= "" and vim.fn.fnamemodify(name, ":p:h") or vim.fn.getcwd()
  for _, marker in ipairs(options.root_markers) do
    local found_dir = vim.fn.finddir(marker, dir .. ";")
    if found_dir ~= "" then
      -- ":p" gives "/root/.git/"; two ":h" strip the slash and ".git".
      return vim.fn.fnamemodify(found_dir, ":p:h:h")
    end
    local found_file = vim.fn.findfile(marker, dir .. ";")
    if found_file ~= "" then
      return vim.fn.fnamemodify(found_file, ":p:h")
    end
  end
  return dir
end

local function language_id(bufnr, filetype)
  if filetype == "json" or filetype == "jsonc" then
    return filetype
  end
  return M.is_log_buffer(bufnr) and "log" or filetype
end

local function client_config(root_dir)
  local settings = M.server_settings()
  return {
    name = "dsls",
    cmd = options.cmd or { options.path, "--stdio" },
    root_dir = root_dir,
    workspace_folders = nil,
    init_options = settings,
    settings = { dsls = settings },
    get_language_id = language_id,
    capabilities = options.capabilities,
    on_attach = options.on_attach,
    flags = { allow_incremental_sync = true, debounce_text_changes = 150 },
  }
end

-- Starts (or reuses) the client for the buffer's root and attaches the buffer.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local root = find_root(bufnr)
  if vim.lsp.start then
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  local id = clients_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client_stopped(client) then
    id = vim.lsp.start_client(client_config(root))
    if not id then
      vim.notify("dsls: could not start " .. vim.inspect(options.cmd or options.path), vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

local function maybe_attach(args)
  local bufnr = args.buf
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  if M.is_config_buffer(bufnr) or M.is_log_buffer(bufnr) or M.is_host_buffer(bufnr) then
    M.attach(bufnr)
  end
end

local function dsls_clients()
  local found = {}
  -- get_active_clients() is deprecated from 0.10 in favour of get_clients().
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, client in pairs(all) do
    if client.name == "dsls" then
      table.insert(found, client)
    end
  end
  return found
end

-- Python sources, shell scripts and YAML files may write a ds_config (a dict, a heredoc, an
-- Accelerate config). They are sent only once a dsls client runs (a JSON or log buffer started
-- it): opening one of them alone does not start the server, which publishes nothing for a file
-- that writes no config.
local host_filetypes = { python = true, sh = true, bash = true, yaml = true }

function M.is_host_buffer(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if not options.detect_by_content or vim.bo[bufnr].buftype ~= "" or not host_filetypes[vim.bo[bufnr].filetype] then
    return false
  end
  return #dsls_clients() > 0
end

-- Sends new settings to running servers (workspace/didChangeConfiguration).
function M.update_settings(settings)
  options.settings = vim.tbl_deep_extend("force", options.settings, settings or {})
  if settings and settings.rules then
    options.settings.rules = settings.rules -- replace, so a rule can be reset to its default
  end
  local server_settings = M.server_settings()
  for _, client in ipairs(dsls_clients()) do
    client.config.settings = { dsls = server_settings }
    client_notify(client, "workspace/didChangeConfiguration", { settings = { dsls = server_settings } })
  end
end

-- A client to run commands with: one attached to the buffer, any dsls client, or a
-- new one that is not attached to any buffer.
local function command_client(bufnr)
  for _, client in ipairs(dsls_clients()) do
    if client.attached_buffers and client.attached_buffers[bufnr] then
      return client
    end
  end
  local any = dsls_clients()[1]
  if any then
    return any
  end
  local existing = detached_client_id and vim.lsp.get_client_by_id(detached_client_id)
  if existing and not client_stopped(existing) then
    return existing
  end
  local config = client_config(vim.fn.getcwd())
  if vim.lsp.start_client then
    detached_client_id = vim.lsp.start_client(config)
  else
    detached_client_id = vim.lsp.start(config, { attach = false })
  end
  return detached_client_id and vim.lsp.get_client_by_id(detached_client_id)
end

-- Runs dsls.diagnoseText on `text`; calls on_result(err, result).
function M.diagnose_text(text, on_result, bufnr)
  local client = command_client(bufnr or vim.api.nvim_get_current_buf())
  if not client then
    on_result("dsls is not running and could not be started", nil)
    return
  end
  local ready = vim.wait(10000, function()
    return client.initialized or client_stopped(client)
  end, 20)
  if not ready or client_stopped(client) then
    on_result("dsls did not finish starting", nil)
    return
  end
  client_request(client, "workspace/executeCommand", {
    command = "dsls.diagnoseText",
    arguments = { { text = text } },
  }, function(err, result)
    on_result(err and (err.message or vim.inspect(err)) or nil, result)
  end, bufnr)
end

-- Text of the last visual selection, or of lines line1..line2 when the command was
-- not given the visual range. Terminal lines lose their padding.
function M.selected_text(bufnr, line1, line2)
  local start_pos = vim.fn.getpos("'<")
  local end_pos = vim.fn.getpos("'>")
  local mode = vim.fn.visualmode()
  local from_visual = start_pos[2] == line1 and end_pos[2] == line2 and mode ~= ""
  local lines = vim.api.nvim_buf_get_lines(bufnr, line1 - 1, line2, false)
  if from_visual and mode == "v" and #lines > 0 then
    local last_col = end_pos[3]
    lines[#lines] = lines[#lines]:sub(1, last_col)
    lines[1] = lines[1]:sub(start_pos[3])
  elseif from_visual and mode == "\22" then
    local c1, c2 = math.min(start_pos[3], end_pos[3]), math.max(start_pos[3], end_pos[3])
    for i, line in ipairs(lines) do
      lines[i] = line:sub(c1, c2)
    end
  end
  for i, line in ipairs(lines) do
    lines[i] = line:gsub("%s+$", "")
  end
  return table.concat(lines, "\n")
end

local report_count = 0

function M.show_report(result)
  report_count = report_count + 1
  local markdown, timeline_path = report.render(result or {}, { save_timeline = true })
  local open = ({ split = "new", vsplit = "vnew", tab = "tabnew" })[options.report_window] or "new"
  vim.cmd(open)
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].buftype = "nofile"
  vim.bo[bufnr].bufhidden = "hide"
  vim.bo[bufnr].swapfile = false
  pcall(vim.api.nvim_buf_set_name, bufnr, "dsls://diagnosis/" .. report_count)
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, vim.split(markdown, "\n", { plain = true }))
  vim.bo[bufnr].modifiable = false
  vim.bo[bufnr].filetype = "markdown"
  vim.b[bufnr].dsls_timeline = timeline_path
  -- <CR> on a "Related ds_config keys" line jumps to that key.
  vim.keymap.set("n", "<CR>", function()
    local key = vim.api.nvim_get_current_line():match("^%- `([^`]+)`")
    if key then
      M.reveal_config_key(key)
    end
  end, { buffer = bufnr, desc = "dsls: go to the ds_config key on this line" })
  return bufnr
end

-- Moves to the key (dotted path) in a loaded ds_config buffer; returns true if found.
function M.reveal_config_key(key)
  local parts = vim.split(key, ".", { plain = true })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and M.is_config_buffer(bufnr) then
      local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
      local row, col = 1, 1
      local found = true
      for _, part in ipairs(parts) do
        local hit = false
        while row <= #lines do
          local s = lines[row]:find('"' .. vim.pesc(part) .. '"%s*:', col)
          if s then
            col, hit = s + 1, true
            break
          end
          row, col = row + 1, 1
        end
        if not hit then
          found = false
          break
        end
      end
      if found then
        local win = vim.fn.bufwinid(bufnr)
        if win ~= -1 then
          vim.api.nvim_set_current_win(win)
        else
          vim.cmd("buffer " .. bufnr)
        end
        vim.api.nvim_win_set_cursor(0, { row, col - 1 })
        return true
      end
    end
  end
  vim.notify("dsls: no loaded ds_config defines " .. key, vim.log.levels.INFO)
  return false
end

-- :[range]DslsDiagnose — diagnose the selected lines (the whole buffer without a range).
local function diagnose_command(cmd)
  local bufnr = vim.api.nvim_get_current_buf()
  local text
  if cmd.range == 0 then
    text = buffer_text(bufnr)
  else
    text = M.selected_text(bufnr, cmd.line1, cmd.line2)
  end
  if text:match("^%s*$") then
    vim.notify("dsls: nothing selected to diagnose", vim.log.levels.WARN)
    return
  end
  if cmd.range ~= 0 and cmd.line1 > 1 then
    -- Blank lines before the selection keep the report's line numbers those of the buffer.
    text = string.rep("\n", cmd.line1 - 1) .. text
  end
  M.diagnose_text(text, function(err, result)
    if err then
      vim.notify("dsls: " .. err, vim.log.levels.ERROR)
      return
    end
    vim.schedule(function()
      M.show_report(result)
    end)
  end, bufnr)
end

function M.setup(opts)
  options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts or {})
  -- Lists replace the defaults' rather than merge with them index by index.
  for key, value in pairs((opts and opts.settings) or {}) do
    options.settings[key] = value
  end
  local group = vim.api.nvim_create_augroup("dsls", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = { "json", "jsonc", "log", "python", "sh", "bash", "yaml" },
    callback = maybe_attach,
  })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    pattern = options.log_globs,
    callback = maybe_attach,
  })
  vim.api.nvim_create_user_command("DslsDiagnose", diagnose_command, {
    range = true,
    desc = "Diagnose the selected DeepSpeed / PyTorch log lines with dsls",
  })
  vim.api.nvim_create_user_command("DslsRestart", function()
    for _, client in ipairs(dsls_clients()) do
      client_stop(client)
    end
    clients_by_root = {}
    vim.defer_fn(function()
      for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
        if vim.api.nvim_buf_is_loaded(bufnr) then
          maybe_attach({ buf = bufnr })
        end
      end
    end, 500)
  end, { desc = "Restart the dsls language server" })
  -- Buffers already open when setup() runs.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      maybe_attach({ buf = bufnr })
    end
  end
end

return M
