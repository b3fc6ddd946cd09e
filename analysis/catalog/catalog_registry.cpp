// Indexes the catalog read from its data files (catalog_data.h), built once on first use.
#include <string>
#include <unordered_map>

#include "analysis/catalog/catalog_data.h"

namespace dsls::catalog {

namespace {

std::string join(std::string_view parent, std::string_view leaf) {
  if (parent.empty()) return std::string(leaf);
  std::string out;
  out.reserve(parent.size() + 1 + leaf.size());
  out.append(parent).append(".").append(leaf);
  return out;
}

std::vector<std::string_view> splitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

bool hasWildcard(std::string_view path) {
  return path == "*" || path.starts_with("*.") || path.ends_with(".*") || path.find(".*.") != std::string_view::npos;
}

// Segment-wise match where a "*" pattern segment matches any one segment. Called for every
// wildcard entry on each lookup that misses, so it walks both paths in place.
bool matchesPattern(std::string_view pattern, std::string_view path) {
  while (true) {
    const std::size_t pDot = pattern.find('.');
    const std::size_t qDot = path.find('.');
    const std::string_view p = pattern.substr(0, pDot);
    if (p != "*" && p != path.substr(0, qDot)) return false;
    if (pDot == std::string_view::npos || qDot == std::string_view::npos) return pDot == qDot;
    pattern.remove_prefix(pDot + 1);
    path.remove_prefix(qDot + 1);
  }
}

struct Registry {
  std::vector<KeyInfo> keys;
  std::vector<SectionInfo> sections;
  std::deque<std::string> strings;    // the text the entries point into
  std::vector<std::string> problems;  // of the data files; tests/unit/catalog/data_test.cpp expects none
  std::unordered_map<std::string, std::size_t> keyByPath;      // canonical paths and alias spellings
  std::unordered_map<std::string, std::size_t> sectionByPath;  // declared paths, alias sections included
  std::unordered_map<std::string, std::vector<std::size_t>> children;  // canonical parent -> keys
  std::vector<std::size_t> wildcardKeys, wildcardSections;
};

std::string_view inheritedDocsUrl(const Registry& r, std::string_view path) {
  for (std::string_view p = path;; p = parentPath(p)) {
    auto it = r.sectionByPath.find(std::string(p));
    if (it != r.sectionByPath.end() && !r.sections[it->second].docsUrl.empty()) return r.sections[it->second].docsUrl;
    if (p.empty()) return {};
  }
}

Registry build() {
  Registry r;
  data::Catalog catalog = data::read(data::embeddedFiles());
  r.keys = std::move(catalog.keys);
  r.sections = std::move(catalog.sections);
  r.strings = std::move(catalog.strings);
  r.problems = std::move(catalog.problems);
  for (std::size_t i = 0; i < r.sections.size(); ++i) {
    r.sectionByPath.emplace(std::string(r.sections[i].path), i);
    if (hasWildcard(r.sections[i].path)) r.wildcardSections.push_back(i);
  }
  for (std::size_t i = 0; i < r.keys.size(); ++i) {
    KeyInfo& key = r.keys[i];
    if (key.docsUrl.empty()) key.docsUrl = inheritedDocsUrl(r, key.path);
    r.keyByPath.emplace(std::string(key.path), i);
    std::string_view parent = parentPath(key.path);
    r.children[std::string(parent)].push_back(i);
    for (std::string_view alias : key.aliases) r.keyByPath.emplace(join(parent, alias), i);
    if (hasWildcard(key.path)) r.wildcardKeys.push_back(i);
  }
  // Keys under an alias section answer to that spelling too ("bfloat16.enabled").
  for (const SectionInfo& s : r.sections) {
    if (s.aliasOf.empty()) continue;
    std::string prefix = std::string(s.aliasOf) + ".";
    for (std::size_t i = 0; i < r.keys.size(); ++i) {
      std::string_view path = r.keys[i].path;
      if (path.starts_with(prefix)) r.keyByPath.emplace(join(s.path, path.substr(prefix.size())), i);
    }
  }
  return r;
}

const Registry& registry() {
  static const Registry r = build();
  return r;
}

// Rewrites the parent part of `path` into canonical spelling: alias sections
// become their target, aliased intermediate keys their canonical name.
std::string canonicalParent(const Registry& r, const std::vector<std::string_view>& segs) {
  std::string cur;
  for (std::size_t k = 0; k + 1 < segs.size(); ++k) {
    std::string cand = join(cur, segs[k]);
    if (auto s = r.sectionByPath.find(cand); s != r.sectionByPath.end() && !r.sections[s->second].aliasOf.empty()) {
      cur = std::string(r.sections[s->second].aliasOf);
    } else if (auto it = r.keyByPath.find(cand); it != r.keyByPath.end()) {
      cur = std::string(r.keys[it->second].path);
    } else {
      cur = std::move(cand);
    }
  }
  return cur;
}

const KeyInfo* lookupKey(const Registry& r, std::string_view path) {
  if (auto it = r.keyByPath.find(std::string(path)); it != r.keyByPath.end()) return &r.keys[it->second];
  if (path.empty()) return nullptr;
  auto segs = splitPath(path);
  std::string full = join(canonicalParent(r, segs), segs.back());
  if (auto it = r.keyByPath.find(full); it != r.keyByPath.end()) return &r.keys[it->second];
  for (std::size_t i : r.wildcardKeys) {
    if (matchesPattern(r.keys[i].path, full)) return &r.keys[i];
  }
  return nullptr;
}

const SectionInfo* lookupSection(const Registry& r, std::string_view path) {
  if (auto it = r.sectionByPath.find(std::string(path)); it != r.sectionByPath.end()) return &r.sections[it->second];
  if (path.empty()) return nullptr;
  // The path may spell the section through key aliases ("tensor_parallel.tp").
  if (const KeyInfo* key = lookupKey(r, path)) {
    if (auto it = r.sectionByPath.find(std::string(key->path)); it != r.sectionByPath.end()) {
      return &r.sections[it->second];
    }
  }
  auto segs = splitPath(path);
  std::string full = join(canonicalParent(r, segs), segs.back());
  if (auto it = r.sectionByPath.find(full); it != r.sectionByPath.end()) return &r.sections[it->second];
  for (std::size_t i : r.wildcardSections) {
    if (matchesPattern(r.sections[i].path, full)) return &r.sections[i];
  }
  return nullptr;
}

}  // namespace

std::string_view parentPath(std::string_view dottedPath) {
  std::size_t dot = dottedPath.rfind('.');
  return dot == std::string_view::npos ? std::string_view{} : dottedPath.substr(0, dot);
}

std::string_view leafName(std::string_view dottedPath) {
  std::size_t dot = dottedPath.rfind('.');
  return dot == std::string_view::npos ? dottedPath : dottedPath.substr(dot + 1);
}

const KeyInfo* findKey(std::string_view dottedPath) { return lookupKey(registry(), dottedPath); }

const SectionInfo* findSection(std::string_view dottedPath) { return lookupSection(registry(), dottedPath); }

std::vector<const KeyInfo*> childrenOf(std::string_view sectionPath) {
  const Registry& r = registry();
  const SectionInfo* section = lookupSection(r, sectionPath);
  if (!section) return {};
  std::string_view canonical = section->aliasOf.empty() ? section->path : section->aliasOf;
  std::vector<const KeyInfo*> out;
  if (auto it = r.children.find(std::string(canonical)); it != r.children.end()) {
    out.reserve(it->second.size());
    for (std::size_t i : it->second) out.push_back(&r.keys[i]);
  }
  return out;
}

std::vector<const KeyInfo*> keysNamed(std::string_view name) {
  std::vector<const KeyInfo*> out;
  if (name.empty()) return out;
  for (const KeyInfo& key : registry().keys) {
    bool match = leafName(key.path) == name;
    for (std::string_view alias : key.aliases) match = match || alias == name;
    if (match) out.push_back(&key);
  }
  return out;
}

std::span<const KeyInfo> allKeys() { return registry().keys; }

const std::vector<std::string>& data::embeddedProblems() { return registry().problems; }

std::span<const SectionInfo> allSections() { return registry().sections; }

std::string_view defaultAt(const KeyInfo& key, const Version& v) {
  std::string_view value = key.defaultValue;
  if (key.defaultChanges.empty()) return value;
  // Before the first recorded change with a version, the first entry applies.
  value = key.defaultChanges.front().value;
  for (const DefaultChange& change : key.defaultChanges) {
    if (change.since.empty()) {
      value = change.value;
      continue;
    }
    auto since = Version::parse(change.since);
    if (since && *since <= v) value = change.value;
  }
  return value;
}

bool availableIn(const KeyInfo& key, const Version& v) {
  if (!key.since.empty()) {
    if (auto since = Version::parse(key.since); since && v < *since) return false;
  }
  if (!key.until.empty()) {
    if (auto until = Version::parse(key.until); until && !(v < *until)) return false;
  }
  return true;
}

bool strictIn(const SectionInfo& section, const Version& v) {
  if (!section.strict) return false;
  if (section.strictSince.empty()) return true;
  auto since = Version::parse(section.strictSince);
  return !since || !(v < *since);
}

}  // namespace dsls::catalog
