// Reads the catalog's TOML files into KeyInfo and SectionInfo. Each field of an entry is one
// row of a field table (its TOML name and the member it fills), so the reader and the structs
// cannot drift apart: a field the tables do not name is reported, not skipped.
#include "analysis/catalog/catalog_data.h"

#include <toml++/toml.h>

#include <initializer_list>
#include <limits>
#include <optional>
#include <unordered_map>
#include <variant>

namespace dsls::catalog::data {

namespace {

constexpr std::pair<std::string_view, ValueType> kTypeNames[] = {
    {"null", Null}, {"bool", Bool}, {"integer", Integer}, {"number", Number},
    {"string", String}, {"object", Object}, {"array", Array}};

constexpr std::pair<std::string_view, AutoFill> kAutoFillNames[] = {
    {"None", AutoFill::None}, {"HfTrainer", AutoFill::HfTrainer}, {"Accelerate", AutoFill::Accelerate},
    {"HfAndAccelerate", AutoFill::HfAndAccelerate}, {"DeepSpeedNative", AutoFill::DeepSpeedNative}};

// Members whose TOML value is a name to resolve: a page of the [docs] tables, type names.
template <class Info>
struct PageName {
  std::string_view Info::*member;
};
template <class Info>
struct TypeNames {
  unsigned Info::*member;
};

template <class Info>
using Target = std::variant<std::string_view Info::*, std::vector<std::string_view> Info::*, bool Info::*,
                            std::vector<int> Info::*, AutoFill Info::*, std::vector<DefaultChange> Info::*,
                            PageName<Info>, TypeNames<Info>>;

template <class Info>
struct Field {
  std::string_view name;
  Target<Info> target;
  bool required = false;
};

const Field<KeyInfo> kKeyFields[] = {
    {"path", &KeyInfo::path, true},
    {"types", TypeNames<KeyInfo>{&KeyInfo::types}, true},
    {"allowed", &KeyInfo::allowed},
    {"default", &KeyInfo::defaultValue},
    {"defaultNote", &KeyInfo::defaultNote},
    {"defaultChanges", &KeyInfo::defaultChanges},
    {"autoFill", &KeyInfo::autoFill},
    {"deprecatedBy", &KeyInfo::deprecatedBy},
    {"deprecatedSince", &KeyInfo::deprecatedSince},
    {"since", &KeyInfo::since},
    {"until", &KeyInfo::until},
    {"aliases", &KeyInfo::aliases},
    {"stages", &KeyInfo::stages},
    {"doc", &KeyInfo::doc, true},
    {"docs", PageName<KeyInfo>{&KeyInfo::docsUrl}},
    {"caseInsensitive", &KeyInfo::caseInsensitive},
    {"openEnum", &KeyInfo::openEnum},
    {"removedAfter", &KeyInfo::removedAfter},
    {"versionNote", &KeyInfo::versionNote},
    {"deprecatedStages", &KeyInfo::deprecatedStages},
};

const Field<SectionInfo> kSectionFields[] = {
    {"path", &SectionInfo::path, true},
    {"strict", &SectionInfo::strict},
    {"strictSince", &SectionInfo::strictSince},
    {"openKeys", &SectionInfo::openKeys},
    {"doc", &SectionInfo::doc, true},
    {"docs", PageName<SectionInfo>{&SectionInfo::docsUrl}},
    {"aliasOf", &SectionInfo::aliasOf},
};

// Concatenation by append: g++ 12 reports a false -Wrestrict for "literal" + std::string.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view part : parts) out.append(part);
  return out;
}

// The text of a string node, without a copy; nullopt for any other node.
std::optional<std::string_view> textOf(const toml::node* node) {
  const toml::value<std::string>* text = node ? node->as_string() : nullptr;
  if (!text) return std::nullopt;
  return std::string_view(text->get());
}
std::optional<std::string_view> textOf(const toml::node& node) { return textOf(&node); }

template <class T, std::size_t N>
std::optional<T> named(const std::pair<std::string_view, T> (&names)[N], std::string_view name) {
  for (const auto& [spelling, value] : names) {
    if (spelling == name) return value;
  }
  return std::nullopt;
}

template <class T, std::size_t N>
std::string spellings(const std::pair<std::string_view, T> (&names)[N]) {
  std::string out;
  for (const auto& entry : names) out.append(out.empty() ? "" : ", ").append(entry.first);
  return out;
}

// Fills one entry's fields; returns what is wrong with a value, or "" when it fits.
class EntryReader {
 public:
  EntryReader(Catalog& out, const std::unordered_map<std::string, std::string_view>& pages)
      : out_(out), pages_(pages) {}

  template <class Info>
  std::string read(const toml::node& node, Info& info, std::string_view Info::*member) {
    auto text = textOf(node);
    if (!text) return "must be a string";
    info.*member = keep(*text);
    return "";
  }

  template <class Info>
  std::string read(const toml::node& node, Info& info, std::vector<std::string_view> Info::*member) {
    const toml::array* list = node.as_array();
    if (!list) return "must be a list of strings";
    for (const toml::node& element : *list) {
      auto text = textOf(element);
      if (!text) return "must be a list of strings";
      (info.*member).push_back(keep(*text));
    }
    return "";
  }

  template <class Info>
  std::string read(const toml::node& node, Info& info, bool Info::*member) {
    auto flag = node.value<bool>();
    if (!flag || !node.is_boolean()) return "must be true or false";
    info.*member = *flag;
    return "";
  }

  template <class Info>
  std::string read(const toml::node& node, Info& info, std::vector<int> Info::*member) {
    const toml::array* list = node.as_array();
    if (!list) return "must be a list of integers";
    for (const toml::node& element : *list) {
      const auto* number = element.as_integer();
      if (!number || number->get() < 0 || number->get() > std::numeric_limits<int>::max()) {
        return "must be a list of integers";
      }
      (info.*member).push_back(static_cast<int>(number->get()));
    }
    return "";
  }

  template <class Info>
  std::string read(const toml::node& node, Info& info, AutoFill Info::*member) {
    auto text = textOf(node);
    auto fill = text ? named(kAutoFillNames, *text) : std::nullopt;
    if (!fill) return cat({"must be one of ", spellings(kAutoFillNames)});
    info.*member = *fill;
    return "";
  }

  template <class Info>
  std::string read(const toml::node& node, Info& info, std::vector<DefaultChange> Info::*member) {
    const char* shape = "must be a list of { since = \"<release or empty>\", value = \"<JSON text>\" }";
    const toml::array* list = node.as_array();
    if (!list) return shape;
    for (const toml::node& element : *list) {
      const toml::table* change = element.as_table();
      if (!change || change->size() != 2) return shape;
      auto since = textOf((*change)["since"].node());
      auto value = textOf((*change)["value"].node());
      if (!since || !value) return shape;
      (info.*member).push_back({keep(*since), keep(*value)});
    }
    return "";
  }

  template <class Info>
  std::string read(const toml::node& node, Info& info, PageName<Info> target) {
    auto name = textOf(node);
    if (!name) return "must be the name of a page in a [docs] table";
    auto page = pages_.find(std::string(*name));
    if (page == pages_.end()) return cat({"names the page \"", *name, "\", which no [docs] table declares"});
    info.*target.member = page->second;
    return "";
  }

  template <class Info>
  std::string read(const toml::node& node, Info& info, TypeNames<Info> target) {
    auto shape = [] { return cat({"must be a non-empty list of ", spellings(kTypeNames)}); };
    const toml::array* list = node.as_array();
    if (!list || list->empty()) return shape();
    for (const toml::node& element : *list) {
      auto text = textOf(element);
      auto type = text ? named(kTypeNames, *text) : std::nullopt;
      if (!type) return shape();
      info.*target.member |= *type;
    }
    return "";
  }

  // One [[key]] or [[section]] table; problems name `where` ("<file>: key <path>").
  template <class Info, std::size_t N>
  Info entry(const toml::table& table, const Field<Info> (&fields)[N], const std::string& where) {
    Info info;
    for (const auto& member : table) {
      // Named references: clang 14 cannot capture a structured binding in the lambda below.
      const toml::key& name = member.first;
      const toml::node& node = member.second;
      const Field<Info>* field = nullptr;
      for (const Field<Info>& f : fields) field = f.name == name.str() ? &f : field;
      if (!field) {
        problem(where, cat({"\"", name.str(), "\" is not a field of the catalog"}));
        continue;
      }
      std::string wrong = std::visit([&](auto target) { return read(node, info, target); }, field->target);
      if (!wrong.empty()) problem(where, cat({"\"", field->name, "\" ", wrong}));
    }
    for (const Field<Info>& f : fields) {
      if (f.required && !table.contains(f.name)) problem(where, cat({"\"", f.name, "\" is missing"}));
    }
    return info;
  }

  void problem(std::string_view where, std::string_view what) { out_.problems.push_back(cat({where, ": ", what})); }

  std::string_view keep(std::string_view text) { return out_.strings.emplace_back(text); }

 private:
  Catalog& out_;
  const std::unordered_map<std::string, std::string_view>& pages_;
};

// "<file>: key <path>", or the entry's position when its path is not a string.
std::string entryName(std::string_view file, std::string_view kind, const toml::table& table, std::size_t index) {
  if (auto path = table["path"].value<std::string>()) return cat({file, ": ", kind, " \"", *path, "\""});
  return cat({file, ": ", kind, " number ", std::to_string(index + 1), " (no path)"});
}

template <class Info, std::size_t N>
void readEntries(EntryReader& reader, std::string_view file, const toml::table& root, std::string_view kind,
                 const Field<Info> (&fields)[N], std::vector<Info>& out) {
  const toml::node* node = root.get(kind);
  if (!node) return;
  const toml::array* entries = node->as_array();
  if (!entries) {
    reader.problem(file, cat({kind, " must be written as [[", kind, "]] tables"}));
    return;
  }
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const toml::table* table = (*entries)[i].as_table();
    if (!table) {
      reader.problem(file, cat({kind, " number ", std::to_string(i + 1), " is not a table"}));
      continue;
    }
    out.push_back(reader.entry(*table, fields, entryName(file, kind, *table, i)));
  }
}

std::optional<toml::table> parse(const File& file, Catalog& out) {
  try {
    return toml::parse(file.text, file.name);
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    out.problems.push_back(cat({file.name, ":", std::to_string(at.line), ":", std::to_string(at.column),
                                ": not valid TOML (", e.description(), ")"}));
    return std::nullopt;
  }
}

// Page names of every [docs] table; checks that each file holds only catalog tables.
std::unordered_map<std::string, std::string_view> readPages(const std::vector<toml::table>& roots,
                                                            std::span<const File> files, EntryReader& reader) {
  std::unordered_map<std::string, std::string_view> pages;
  for (std::size_t f = 0; f < roots.size(); ++f) {
    for (const auto& [name, node] : roots[f]) {
      if (name != "docs" && name != "key" && name != "section") {
        reader.problem(files[f].name, cat({"\"", name.str(), "\" is not a catalog table (docs, section, key)"}));
      }
    }
    const toml::node* docs = roots[f].get("docs");
    if (!docs) continue;
    if (!docs->is_table()) {
      reader.problem(files[f].name, "docs must be a table of page names");
      continue;
    }
    for (const auto& [name, url] : *docs->as_table()) {
      std::string where = cat({files[f].name, ": page \"", name.str(), "\""});
      auto text = url.value<std::string>();
      if (!text) {
        reader.problem(where, "must be a URL string");
      } else if (!pages.emplace(std::string(name.str()), reader.keep(*text)).second) {
        reader.problem(where, "is declared twice");
      }
    }
  }
  return pages;
}

}  // namespace

Catalog read(std::span<const File> files) {
  Catalog out;
  std::vector<toml::table> roots;
  std::vector<File> parsed;
  for (const File& file : files) {
    if (auto root = parse(file, out)) {
      roots.push_back(std::move(*root));
      parsed.push_back(file);
    }
  }
  std::unordered_map<std::string, std::string_view> none;
  EntryReader pagesReader(out, none);
  auto pages = readPages(roots, parsed, pagesReader);
  EntryReader reader(out, pages);
  for (std::size_t f = 0; f < roots.size(); ++f) {
    readEntries(reader, parsed[f].name, roots[f], "section", kSectionFields, out.sections);
    readEntries(reader, parsed[f].name, roots[f], "key", kKeyFields, out.keys);
  }
  return out;
}

}  // namespace dsls::catalog::data
