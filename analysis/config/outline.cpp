// Document symbols (outline) and document links for ds_configs, bounded by analysis/core/limits.h.
#include "analysis/catalog/catalog.h"
#include "analysis/config/config_features.h"
#include "analysis/core/limits.h"
#include "analysis/json/path.h"

#include <algorithm>

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

// Symbols left to give and members left to visit, shared by one whole walk.
struct Budget {
  std::size_t items;
  std::size_t visits = analysis::kMaxWalkedMembers;
  bool spent() const { return items == 0 || visits == 0; }
};

// Members of objects in the `levels` levels below `node`, counted until the count passes `limit`.
std::size_t countMembers(const json::Node& node, int levels, std::size_t limit) {
  if (node.kind != json::Kind::Object || levels <= 0) return 0;
  std::size_t n = 0;
  for (const auto& m : node.members()) {
    if (++n > limit) return n;
    n += countMembers(m.value, levels - 1, limit - n);
    if (n > limit) return n;
  }
  return n;
}

// The deepest outline (at most kMaxOutlineDepth levels) that fits in kMaxOutlineSymbols, so a
// large document shows its top levels whole rather than the first branch in depth; at least one level.
int outlineDepth(const json::Node& root) {
  int levels = 1;
  while (levels < analysis::kMaxOutlineDepth &&
         countMembers(root, levels + 1, analysis::kMaxOutlineSymbols) <= analysis::kMaxOutlineSymbols)
    ++levels;
  return levels;
}

std::vector<SymbolInfo> symbolsOf(const json::Node& node, std::string_view text, int levels, Budget& budget) {
  std::vector<SymbolInfo> out;
  if (node.kind != json::Kind::Object || levels <= 0) return out;
  for (const auto& m : node.members()) {
    if (budget.spent()) break;
    --budget.items;
    --budget.visits;
    SymbolInfo s;
    s.name = m.key;
    s.kind = kindOf(m.value);
    s.range = {m.keyRange.begin, m.value.range.end};
    s.selection = m.keyRange;
    if (m.value.kind != json::Kind::Object && m.value.kind != json::Kind::Array) {
      std::string_view raw = m.value.raw(text);
      s.detail = std::string(raw.substr(0, 60));
    }
    s.children = symbolsOf(m.value, text, levels - 1, budget);
    out.push_back(std::move(s));
  }
  return out;
}

// Links to the documentation of catalog keys and sections, and to absolute local paths. The
// walk goes only into known sections: nothing below an unknown key has documentation.
void linksOf(const json::Node& node, std::vector<std::string>& path, std::vector<LinkInfo>& out, int depth,
             Budget& budget) {
  if (node.kind != json::Kind::Object || depth > 32) return;
  for (const auto& m : node.members()) {
    if (budget.spent()) return;
    --budget.visits;
    path.emplace_back(m.key);
    std::string dotted = json::joinPath(path);
    const catalog::SectionInfo* section = catalog::findSection(dotted);
    if (const catalog::KeyInfo* key = catalog::findKey(dotted); key && !key->docsUrl.empty())
      out.push_back({m.keyRange, std::string(key->docsUrl), "DeepSpeed documentation for " + dotted});
    else if (section && !section->docsUrl.empty())
      out.push_back({m.keyRange, std::string(section->docsUrl), "DeepSpeed documentation for " + dotted});
    // Local paths (nvme_path, output_path, ...) link to the folder when it is absolute.
    if (m.value.kind == json::Kind::String && m.key.size() > 5 &&
        m.key.compare(m.key.size() - 5, 5, "_path") == 0 && !m.value.string.empty() && m.value.string[0] == '/')
      out.push_back({m.value.range, "file://" + std::string(m.value.string), "Open " + std::string(m.value.string)});
    budget.items = analysis::kMaxLinks - std::min(out.size(), analysis::kMaxLinks);
    if (section) linksOf(m.value, path, out, depth + 1, budget);
    path.pop_back();
  }
}

}  // namespace

std::vector<SymbolInfo> outline(const analysis::ConfigAnalysis& a) {
  if (!a.document().root) return {};
  Budget budget{analysis::kMaxOutlineSymbols};
  const json::Node& root = *a.document().root;
  return symbolsOf(root, a.text(), outlineDepth(root), budget);
}

std::vector<LinkInfo> links(const analysis::ConfigAnalysis& a) {
  std::vector<LinkInfo> out;
  if (!a.document().root) return out;
  std::vector<std::string> path;
  Budget budget{analysis::kMaxLinks};
  linksOf(*a.document().root, path, out, 0, budget);
  if (out.size() > analysis::kMaxLinks) out.resize(analysis::kMaxLinks);
  return out;
}

}  // namespace dsls::config
