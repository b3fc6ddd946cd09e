-- dsls as a Neovim 0.11+ server config (`:h lsp-config`). With editors/nvim on 'runtimepath'
-- (or this file in your config's lsp/ folder):
--   vim.lsp.config("dsls", { settings = { dsls = { deepspeedVersion = "0.16.4" } } })
--   vim.lsp.enable("dsls")
-- starts the server for JSON buffers; it decides which are ds_configs and publishes nothing
-- for the others. Training logs need a "log" filetype, e.g.
--   vim.filetype.add({ extension = { log = "log" } })
-- :DslsDiagnose and its report window come with require("dsls").setup() (lua/dsls).
-- The settings are those of the server contract (docs/editors.md).
return {
  cmd = { "dsls", "--stdio" },
  filetypes = { "json", "jsonc", "log" },
  root_markers = { "pyproject.toml", "setup.py", "setup.cfg", ".git" },
  settings = { dsls = {} },
}
