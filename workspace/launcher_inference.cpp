#include "workspace/launcher_inference.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

namespace dsls::workspace {
namespace fs = std::filesystem;
using analysis::Launcher;

namespace {

constexpr std::size_t kMaxEntries = 20000;       // directory entries walked per project
constexpr std::uintmax_t kMaxFileBytes = 512u << 10;
constexpr auto kKeepIndex = std::chrono::seconds(30);

// A flag (or key) and the reader it hands the file to. The flags are the readers' own:
// DeepSpeed's add_config_arguments (--deepspeed_config), HF TrainingArguments (--deepspeed PATH),
// accelerate launch (--deepspeed_config_file); YAML keys of Accelerate and of HF-based frameworks.
struct Handoff {
  std::string_view word;
  Launcher launcher;
};
constexpr std::array kShellFlags = {
    Handoff{"--deepspeed_config", Launcher::DeepSpeed}, Handoff{"--deepspeed-config", Launcher::DeepSpeed},
    Handoff{"--deepspeed_config_file", Launcher::Accelerate}, Handoff{"--deepspeed", Launcher::HfTrainer},
};
constexpr std::array kYamlKeys = {
    Handoff{"deepspeed_config_file", Launcher::Accelerate}, Handoff{"deepspeed", Launcher::HfTrainer},
};
constexpr std::array kPythonKeywords = {
    Handoff{"deepspeed", Launcher::HfTrainer},        // TrainingArguments(deepspeed=...)
    Handoff{"hf_ds_config", Launcher::Accelerate},    // DeepSpeedPlugin(hf_ds_config=...)
    Handoff{"config_file", Launcher::Accelerate},     // DeepSpeedPlugin(config_file=...) in old releases
};

std::optional<bool> truthWord(std::string_view word) {
  if (word == "True" || word == "true" || word == "1") return true;
  if (word == "False" || word == "false" || word == "0") return false;
  return std::nullopt;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Characters that end a path token: blanks, quotes and the punctuation around arguments.
bool endsToken(char c) { return isSpace(c) || std::string_view("\"'`=(),[];<>|&").find(c) != std::string_view::npos; }

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && (isSpace(s.back()) || s.back() == '"' || s.back() == '\'')) s.remove_suffix(1);
  return s;
}

// The word that ends `before`: "--deepspeed" in "train.py --deepspeed ", "--deepspeed" in "--deepspeed=".
std::string_view lastWord(std::string_view before) {
  before = trimRight(before);
  if (!before.empty() && before.back() == '=') before.remove_suffix(1);
  std::size_t start = before.size();
  while (start > 0 && !isSpace(before[start - 1]) && before[start - 1] != '(' && before[start - 1] != ',') --start;
  return before.substr(start);
}

template <std::size_t N>
std::optional<Launcher> lookup(const std::array<Handoff, N>& table, std::string_view word) {
  for (const Handoff& h : table)
    if (h.word == word) return h.launcher;
  return std::nullopt;
}

}  // namespace

std::optional<bool> bf16Flag(std::string_view line) {
  for (std::size_t at = line.find("--bf16"); at != std::string_view::npos; at = line.find("--bf16", at + 6)) {
    std::size_t end = at + 6;
    if (end < line.size() && !isSpace(line[end]) && line[end] != '=' && line[end] != '\\') continue;  // --bf16_full_eval
    std::string_view rest = line.substr(end);
    if (!rest.empty() && rest.front() == '=') rest.remove_prefix(1);
    while (!rest.empty() && (isSpace(rest.front()) || rest.front() == '\\')) rest.remove_prefix(1);
    std::string_view word = rest.substr(0, rest.find_first_of(" \t\r\n\\"));
    if (auto b = truthWord(word)) return b;
    return true;  // --bf16 alone: the flag of a bool field
  }
  return std::nullopt;
}

std::optional<Launcher> launcherOfLine(std::string_view line, std::string_view reference, std::string_view kind) {
  const std::size_t at = line.find(reference);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view before = line.substr(0, at);
  if (kind == "yaml") {
    std::string_view key = trimRight(before);
    if (key.empty() || key.back() != ':') return std::nullopt;
    key.remove_suffix(1);
    std::size_t start = key.find_last_of(" \t-") == std::string_view::npos ? 0 : key.find_last_of(" \t-") + 1;
    return lookup(kYamlKeys, key.substr(start));
  }
  std::string_view word = lastWord(before);
  if (kind == "python") {
    if (auto keyword = lookup(kPythonKeywords, word)) return keyword;
    // deepspeed.initialize(config=...): plain DeepSpeed reads it.
    if ((word == "config" || word == "config_params") && before.find("deepspeed.initialize") != std::string_view::npos)
      return Launcher::DeepSpeed;
    // An argparse default: parser.add_argument("--deepspeed_config", default="ds.json").
    if (word == "default") {
      for (const Handoff& h : kShellFlags) {
        std::string quoted = std::string("\"").append(h.word).append("\"");
        std::string single = std::string("'").append(h.word).append("'");
        if (before.find(quoted) != std::string_view::npos || before.find(single) != std::string_view::npos)
          return h.launcher;
      }
    }
    return std::nullopt;
  }
  return lookup(kShellFlags, word);
}

namespace {

struct Reference {
  std::vector<std::string> components;  // the path as written, variables and ".." left out
  std::vector<std::string> from;        // the folder of the file that names it, from the project root
  std::optional<Launcher> launcher;
  std::string evidence;
  std::optional<bool> bf16;  // what HF Trainer fills bf16 "auto" with, where the same command or YAML says
};

// A YAML file's top-level "bf16: true" (frameworks that pass the file to HF Trainer read it there).
std::optional<bool> yamlBf16(std::string_view text) {
  for (std::size_t at = text.find("bf16:"); at != std::string_view::npos; at = text.find("bf16:", at + 5)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    std::size_t end = text.find('\n', at);
    std::string_view value = text.substr(at + 5, end == std::string_view::npos ? std::string_view::npos : end - at - 5);
    while (!value.empty() && isSpace(value.front())) value.remove_prefix(1);
    value = value.substr(0, value.find_first_of(" \t\r#"));
    if (auto b = truthWord(value)) return b;
  }
  return std::nullopt;
}

using Index = std::map<std::string, std::vector<Reference>>;  // by file name

std::string_view kindOf(const fs::path& p) {
  static const std::map<std::string, std::string_view> kinds = {
      {".sh", "shell"},  {".bash", "shell"}, {".slurm", "shell"}, {".sbatch", "shell"}, {".zsh", "shell"},
      {".yaml", "yaml"}, {".yml", "yaml"},   {".py", "python"}};
  auto it = kinds.find(p.extension().string());
  return it == kinds.end() ? std::string_view() : it->second;
}

bool skippedFolder(const fs::path& p) {
  const std::string name = p.filename().string();
  static const std::array<std::string_view, 8> skipped = {"node_modules", "__pycache__", "site-packages", "venv",
                                                          "env", "build", "dist", "wandb"};
  return (!name.empty() && name[0] == '.') || std::find(skipped.begin(), skipped.end(), name) != skipped.end();
}

std::vector<std::string> pathComponents(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find_first_of("/\\", start);
    std::string_view part = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!part.empty() && part != "." && part != ".." && part.find_first_of("${}~*") == std::string_view::npos)
      out.emplace_back(part);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

// Calls `found(start, end)` for each token of `text` that ends in ".json": a path as a command,
// a YAML value or a Python string writes it.
template <class Found>
void forEachJsonPath(std::string_view text, Found found) {
  for (std::size_t at = text.find(".json"); at != std::string_view::npos; at = text.find(".json", at + 5)) {
    std::size_t end = at + 5;
    if (end < text.size() && !endsToken(text[end]) && text[end] != '}') continue;
    std::size_t start = at;
    while (start > 0 && !endsToken(text[start - 1])) --start;
    found(start, end);
  }
}

// The line holding offset `at`, joined with the lines a trailing backslash continues (shell).
std::pair<std::string, std::size_t> logicalLine(std::string_view text, std::size_t at, bool shell) {
  std::size_t begin = text.rfind('\n', at);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  std::size_t end = text.find('\n', at);
  if (end == std::string_view::npos) end = text.size();
  std::size_t lineNumber = static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(begin), '\n')) + 1;
  if (shell) {
    while (begin >= 2 && text[begin - 2] == '\\') {
      std::size_t previous = text.rfind('\n', begin - 2);
      begin = previous == std::string_view::npos ? 0 : previous + 1;
    }
    while (end < text.size() && end > 0 && text[end - 1] == '\\') {
      std::size_t next = text.find('\n', end + 1);
      end = next == std::string_view::npos ? text.size() : next;
    }
  }
  return {std::string(text.substr(begin, end - begin)), lineNumber};
}

std::string handoffText(std::string_view line, std::string_view reference, std::string_view kind) {
  std::string_view before = line.substr(0, line.find(reference));
  if (kind == "yaml") {
    std::string_view key = trimRight(before);
    key.remove_suffix(key.empty() ? 0 : 1);
    std::size_t start = key.find_last_of(" \t-");
    return "names it under " + std::string(key.substr(start == std::string_view::npos ? 0 : start + 1));
  }
  std::string_view word = lastWord(before);
  if (kind == "python") return "passes it as " + std::string(word) + "=";
  return "passes it with " + std::string(word);
}

bool isIdentifier(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// DS_CONFIG=configs/ds.json ... --deepspeed_config $DS_CONFIG: the handoff of the variable's first use.
Reference throughVariable(std::string_view text, std::string_view line, std::string_view reference,
                          const std::string& where, std::vector<std::string> components) {
  Reference ref{std::move(components), {}, std::nullopt, {}, std::nullopt};
  std::string_view before = trimRight(line.substr(0, line.find(reference)));
  if (before.empty() || before.back() != '=') return ref;
  std::string_view name = lastWord(before);
  if (!isIdentifier(name)) return ref;
  const std::string braced = std::string("${").append(name).append("}"), plain = std::string("$").append(name);
  for (const std::string& use : {braced, plain}) {
    for (std::size_t at = text.find(use); at != std::string_view::npos; at = text.find(use, at + use.size())) {
      if (use[1] != '{' && at + use.size() < text.size() && isIdentifier(text.substr(at + use.size(), 1))) continue;
      auto [useLine, lineNumber] = logicalLine(text, at, true);
      if (auto launcher = launcherOfLine(useLine, use, "shell")) {
        ref.launcher = launcher;
        if (*launcher == Launcher::HfTrainer) ref.bf16 = bf16Flag(useLine);
        ref.evidence = where + ":" + std::to_string(lineNumber) + " " + handoffText(useLine, use, "shell") + " (as $" +
                       std::string(name) + ")";
        return ref;
      }
    }
  }
  return ref;
}

void indexFile(const fs::path& file, const fs::path& root, std::string_view kind, Index& index) {
  std::error_code ec;
  if (fs::file_size(file, ec) > kMaxFileBytes || ec) return;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.find('\0') != std::string::npos) return;
  const std::string where = fs::relative(file, root, ec).generic_string();
  std::vector<std::string> folder = pathComponents(where);
  if (!folder.empty()) folder.pop_back();
  forEachJsonPath(text, [&](std::size_t start, std::size_t end) {
    const std::string reference = text.substr(start, end - start);
    const std::size_t at = start;
    auto components = pathComponents(reference);
    if (components.empty()) return;
    auto [line, lineNumber] = logicalLine(text, at, kind == "shell");
    Reference ref{components, folder, launcherOfLine(line, reference, kind), {}, std::nullopt};
    if (ref.launcher) ref.evidence = where + ":" + std::to_string(lineNumber) + " " + handoffText(line, reference, kind);
    else if (kind == "shell") ref = throughVariable(text, line, reference, where, std::move(components));
    if (ref.launcher == Launcher::HfTrainer && !ref.bf16) ref.bf16 = kind == "yaml" ? yamlBf16(text) : bf16Flag(line);
    ref.from = folder;
    index[ref.components.back()].push_back(std::move(ref));
  });
}

Index buildIndex(const fs::path& root) {
  Index index;
  std::error_code ec;
  std::size_t entries = 0;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && entries < kMaxEntries; it.increment(ec), ++entries) {
    const fs::directory_entry& entry = *it;
    if (entry.is_directory(ec)) {
      if (skippedFolder(entry.path())) it.disable_recursion_pending();
      continue;
    }
    std::string_view kind = kindOf(entry.path());
    if (!kind.empty() && entry.is_regular_file(ec)) indexFile(entry.path(), root, kind, index);
  }
  return index;
}

struct CachedIndex {
  std::chrono::steady_clock::time_point built;
  std::shared_ptr<const Index> index;
};

std::shared_ptr<const Index> indexFor(const fs::path& root) {
  static std::mutex mutex;
  static std::map<std::string, CachedIndex> cache;
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex);
    auto it = cache.find(root.string());
    if (it != cache.end() && now - it->second.built < kKeepIndex) return it->second.index;
  }
  auto index = std::make_shared<const Index>(buildIndex(root));
  std::lock_guard lock(mutex);
  cache[root.string()] = {now, index};
  return index;
}

bool isSuffix(const std::vector<std::string>& tail, const std::vector<std::string>& whole) {
  return tail.size() <= whole.size() && std::equal(tail.rbegin(), tail.rend(), whole.rbegin());
}

// Whether `ref` names the config at `config` (its components from the project root). A path with
// folders matches where it ends the same; a bare file name only the config beside the file that
// names it or at the project root, where a script run from there finds it.
bool names(const Reference& ref, const std::vector<std::string>& config) {
  if (ref.components.size() > 1) return isSuffix(ref.components, config);
  const std::vector<std::string> folder(config.begin(), config.end() - 1);
  return folder.empty() || folder == ref.from;
}

}  // namespace

std::vector<ConfigLink> configLinks(const std::string& documentPath, std::string_view text,
                                    const std::vector<std::string>& folders) {
  std::vector<ConfigLink> out;
  const std::string_view kind = kindOf(fs::path(documentPath));
  if (kind.empty() || text.size() > kMaxFileBytes) return out;
  forEachJsonPath(text, [&](std::size_t start, std::size_t end) {
    const std::string_view reference = text.substr(start, end - start);
    if (reference.find_first_of("${}~*") != std::string_view::npos) return;
    auto [line, lineNumber] = logicalLine(text, start, kind == "shell");
    std::optional<Launcher> launcher = launcherOfLine(line, reference, kind);
    if (!launcher && kind == "shell")
      launcher = throughVariable(text, line, reference, "", pathComponents(reference)).launcher;
    if (!launcher) return;
    for (const std::string& folder : folders) {
      std::error_code ec;
      const fs::path candidate = fs::path(reference).is_absolute() ? fs::path(reference) : fs::path(folder) / reference;
      if (!fs::is_regular_file(candidate, ec)) continue;
      out.push_back({{start, end}, fs::weakly_canonical(candidate, ec).string(), *launcher});
      break;
    }
  });
  return out;
}

std::optional<InferredLauncher> inferLauncher(const std::string& configPath, const std::string& projectRoot) {
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::path(projectRoot), ec);
  const fs::path config = fs::weakly_canonical(fs::path(configPath), ec);
  if (root.empty() || config.empty()) return std::nullopt;
  const std::vector<std::string> configComponents = pathComponents(fs::relative(config, root, ec).generic_string());
  if (ec || configComponents.empty()) return std::nullopt;
  auto index = indexFor(root);
  auto found = index->find(configComponents.back());
  if (found == index->end()) return std::nullopt;
  std::optional<InferredLauncher> out;
  std::size_t more = 0;
  std::set<bool> bf16Seen;
  for (const Reference& ref : found->second) {
    if (!ref.launcher || !names(ref, configComponents)) continue;
    if (out && out->launcher != *ref.launcher) return std::nullopt;  // the project disagrees with itself
    if (out) ++more;
    else out = InferredLauncher{*ref.launcher, ref.evidence, std::nullopt};
    if (ref.bf16) bf16Seen.insert(*ref.bf16);
  }
  if (out && more > 0) out->evidence += " (and " + std::to_string(more) + " more)";
  if (out && bf16Seen.size() == 1) out->bf16 = *bf16Seen.begin();  // commands that disagree leave it unknown
  return out;
}

}  // namespace dsls::workspace
