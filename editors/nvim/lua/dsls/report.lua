-- Turns the result of dsls.diagnoseText into the text shown in a Neovim buffer.
-- A terminal editor cannot draw the SVG rank timeline, so it is written to a file
-- and the report names that file instead.

local M = {}

local b64chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local b64index = {}
for i = 1, #b64chars do
  b64index[b64chars:sub(i, i)] = i - 1
end

-- Neovim 0.7 has no vim.base64.
function M.base64_decode(data)
  data = data:gsub("[^%w%+/=]", "")
  local out = {}
  local bits, nbits = 0, 0
  for i = 1, #data do
    local c = data:sub(i, i)
    if c == "=" then
      break
    end
    bits = bits * 64 + b64index[c]
    nbits = nbits + 6
    if nbits >= 8 then
      nbits = nbits - 8
      local byte = math.floor(bits / 2 ^ nbits) % 256
      table.insert(out, string.char(byte))
      bits = bits % 2 ^ nbits
    end
  end
  return table.concat(out)
end

local function percent_decode(s)
  return (s:gsub("%%(%x%x)", function(h)
    return string.char(tonumber(h, 16))
  end))
end

-- The SVG text behind a data: URI, or nil.
function M.svg_from_data_uri(uri)
  local meta, payload = uri:match("^data:image/svg%+xml([^,]*),(.*)$")
  if not meta then
    return nil
  end
  if meta:find(";base64", 1, true) then
    return M.base64_decode(payload)
  end
  return percent_decode(payload)
end

local function write_timeline(svg)
  local path = vim.fn.tempname() .. "-dsls-timeline.svg"
  local file = io.open(path, "w")
  if not file then
    return nil
  end
  file:write(svg)
  file:close()
  return path
end

local function rank_text(rank)
  return type(rank) == "number" and ("rank " .. rank) or "rank unknown"
end

-- Markdown for the findings when the server sent no markdown of its own.
function M.render_findings(findings)
  if #findings == 0 then
    return "No known DeepSpeed failure pattern was found in the selected text."
  end
  local out = {}
  for _, f in ipairs(findings) do
    table.insert(out, "## " .. tostring(f.title))
    table.insert(out, "")
    table.insert(out, "Rule: `" .. tostring(f.id) .. "`")
    local line = "Initiating " .. rank_text(f.initiatingRank)
    if type(f.collateralRanks) == "table" and #f.collateralRanks > 0 then
      line = line .. "; collateral ranks " .. table.concat(f.collateralRanks, ", ")
    end
    table.insert(out, line .. ".")
    if type(f.evidence) == "table" and #f.evidence > 0 then
      table.insert(out, "")
      table.insert(out, "```text")
      for _, e in ipairs(f.evidence) do
        table.insert(out, ("line %s (%s): %s"):format(tostring(e.line), rank_text(e.rank), tostring(e.text)))
      end
      table.insert(out, "```")
    end
    if type(f.fix) == "string" then
      table.insert(out, "")
      table.insert(out, "**Fix:** " .. f.fix)
    end
    if type(f.verify) == "string" then
      table.insert(out, "")
      table.insert(out, "**Verify:** " .. f.verify)
    end
    table.insert(out, "")
  end
  return table.concat(out, "\n")
end

-- Returns the report markdown and the path of the saved timeline (or nil).
function M.render(result, opts)
  opts = opts or {}
  local findings = type(result.findings) == "table" and result.findings or {}
  local body = type(result.markdown) == "string" and result.markdown ~= "" and result.markdown
    or M.render_findings(findings)
  local timeline_path = nil
  local function save(svg)
    if opts.save_timeline and svg and not timeline_path then
      timeline_path = write_timeline(svg)
    end
    return timeline_path and ("[rank timeline: " .. timeline_path .. "]") or "[rank timeline: SVG image]"
  end
  body = body:gsub("!%[[^%]]*%]%((data:image/svg%+xml[^)]*)%)", function(uri)
    return save(M.svg_from_data_uri(uri))
  end)
  body = body:gsub("<svg.-</svg>", function(svg)
    return save(svg)
  end)
  local keys, seen = {}, {}
  for _, f in ipairs(findings) do
    for _, key in ipairs(type(f.configKeys) == "table" and f.configKeys or {}) do
      if type(key) == "string" and not seen[key] then
        seen[key] = true
        table.insert(keys, key)
      end
    end
  end
  if #keys > 0 then
    body = body:gsub("\n*$", "") .. "\n\n## Related ds_config keys\n\n"
    for _, key in ipairs(keys) do
      body = body .. "- `" .. key .. "`\n"
    end
  end
  return body, timeline_path
end

return M
