-- editors/nvim/lsp/dsls.lua, the Neovim 0.11 server config, on the Neovim at hand. Where
-- vim.lsp.config exists (0.11+) it is enabled the documented way; on older releases (Debian 12
-- has 0.7.2) the same table is started with vim.lsp.start_client, so its cmd, filetypes and
-- settings are still exercised. Prints one line per check and "N passed, M failed".
local dsls_binary = assert(os.getenv("DSLS_BINARY"), "DSLS_BINARY")
local work = assert(os.getenv("DSLS_WORK"), "DSLS_WORK")
local fixtures = assert(os.getenv("DSLS_FIXTURES"), "DSLS_FIXTURES")
local config_file = assert(os.getenv("DSLS_LSP_CONFIG"), "DSLS_LSP_CONFIG")

vim.cmd("filetype on")
vim.o.swapfile = false

local t = require("dsls_test")
local check = t.check

local config = dofile(config_file)
check("the file returns a config table", type(config) == "table")
check("cmd runs dsls over stdio", vim.deep_equal(config.cmd, { "dsls", "--stdio" }), vim.inspect(config.cmd))
check("JSON and log buffers", vim.tbl_contains(config.filetypes, "json") and vim.tbl_contains(config.filetypes, "log"))
check("settings are the dsls section", type(config.settings) == "table" and type(config.settings.dsls) == "table")

local path = work .. "/ds_config.json"
t.copy(fixtures .. "/ds_config_zero2_race.json", path)

local cmd = vim.deepcopy(config.cmd)
cmd[1] = dsls_binary  -- the built binary stands in for the one on PATH
local has_config = vim.lsp.config ~= nil and vim.lsp.enable ~= nil
if has_config then
  vim.lsp.config("dsls", vim.tbl_extend("force", config, { cmd = cmd, root_markers = { "ds_config.json" } }))
  vim.lsp.enable("dsls")
  vim.cmd("edit " .. vim.fn.fnameescape(path))
else
  io.stdout:write("note   vim.lsp.config is missing (Neovim " .. tostring(vim.version().major) .. "."
    .. tostring(vim.version().minor) .. "): started with vim.lsp.start_client\n")
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local id = vim.lsp.start_client({ name = "dsls", cmd = cmd, root_dir = work, settings = config.settings })
  if vim.tbl_contains(config.filetypes, vim.bo.filetype) then
    vim.lsp.buf_attach_client(0, id)
  end
end
local bufnr = vim.api.nvim_get_current_buf()
local codes = {}
local arrived = vim.wait(10000, function()
  codes = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(codes, d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code))
  end
  return #codes > 0
end, 50)
check("the race diagnostic arrives", arrived and vim.tbl_contains(codes, "overlap-comm-race"), vim.inspect(codes))

t.finish()
