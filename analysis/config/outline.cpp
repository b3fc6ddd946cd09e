// Document symbols (outline) and document links for ds_configs.
#include "analysis/catalog/catalog.h"
#include "analysis/config/config_features.h"
#include "analysis/json/path.h"


namespace dsls::config {

using analysis::LinkInfo;
using analysis::SymbolInfo;

namespace {

SymbolInfo::Kind kindOf(const json::Node& n) {
  switch (n.kind) {
    case json::Kind::Object: return SymbolInfo::Kind::Object;
    case json::Kind::Array: return SymbolInfo::Kind::Array;
    case json::Kind::Bool: return SymbolInfo::Kind::Boolean;
    case json::Kind::Number: return SymbolInfo::Kind::Number;
    case json::Kind::String: return SymbolInfo::Kind::String;
    default: return SymbolInfo::Kind::Null;
  }
}

std::vector<SymbolInfo> symbolsOf(const json::Node& node, std::string_view text, int depth) {
  std::vector<SymbolInfo> out;
  if (node.kind != json::Kind::Object || depth > 32) return out;
  for (const auto& m : node.members) {
    SymbolInfo s;
    s.name = m.key;
    s.kind = kindOf(m.value);
    s.range = {m.keyRange.begin, m.value.range.end};
    s.selection = m.keyRange;
    if (m.value.kind != json::Kind::Object && m.value.kind != json::Kind::Array) {
      std::string_view raw = m.value.raw(text);
      s.detail = std::string(raw.substr(0, 60));
    }
    s.children = symbolsOf(m.value, text, depth + 1);
    out.push_back(std::move(s));
  }
  return out;
}

void linksOf(const json::Node& node, std::vector<std::string>& path, std::vector<LinkInfo>& out, int depth) {
  if (node.kind != json::Kind::Object || depth > 32) return;
  for (const auto& m : node.members) {
    path.push_back(m.key);
    std::string dotted = json::joinPath(path);
    if (const catalog::KeyInfo* key = catalog::findKey(dotted); key && !key->docsUrl.empty())
      out.push_back({m.keyRange, std::string(key->docsUrl), "DeepSpeed documentation for " + dotted});
    else if (const catalog::SectionInfo* s = catalog::findSection(dotted); s && !s->docsUrl.empty())
      out.push_back({m.keyRange, std::string(s->docsUrl), "DeepSpeed documentation for " + dotted});
    // Local paths (nvme_path, output_path, ...) link to the folder when it is absolute.
    if (m.value.kind == json::Kind::String && m.key.size() > 5 &&
        m.key.compare(m.key.size() - 5, 5, "_path") == 0 && !m.value.string.empty() && m.value.string[0] == '/')
      out.push_back({m.value.range, "file://" + m.value.string, "Open " + m.value.string});
    linksOf(m.value, path, out, depth + 1);
    path.pop_back();
  }
}

}  // namespace

std::vector<SymbolInfo> outline(const analysis::ConfigAnalysis& a) {
  if (!a.document().root) return {};
  return symbolsOf(*a.document().root, a.text(), 0);
}

std::vector<LinkInfo> links(const analysis::ConfigAnalysis& a) {
  std::vector<LinkInfo> out;
  if (!a.document().root) return out;
  std::vector<std::string> path;
  linksOf(*a.document().root, path, out, 0);
  return out;
}

}  // namespace dsls::config
