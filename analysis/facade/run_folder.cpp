#include "analysis/facade/run_folder.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <tuple>

namespace dsls::analysis {
namespace {

struct SplitPath {
  std::string_view dir, base;
};

SplitPath splitPath(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos) return {{}, path};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

std::optional<int> parseNumber(std::string_view digits) {
  if (digits.empty() || digits.size() > 6) return std::nullopt;
  for (char c : digits)
    if (c < '0' || c > '9') return std::nullopt;
  int value = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}

int twoDigits(std::string_view s, std::size_t at) { return (s[at] - '0') * 10 + (s[at + 1] - '0'); }

// time.strftime("%Y%m%d%H%M%S"): fourteen digits that read as a date and a time of day.
bool isLaunchTimestamp(std::string_view s) {
  if (s.size() != 14 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  const int month = twoDigits(s, 4), day = twoDigits(s, 6);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && twoDigits(s, 8) < 24 && twoDigits(s, 10) < 60 &&
         twoDigits(s, 12) < 62;
}

// "<YYYYmmddHHMMSS>_rank<N>.log" -> (timestamp, rank).
std::optional<std::pair<std::string_view, int>> eachRankLogName(std::string_view base) {
  constexpr std::string_view kRank = "_rank", kExt = ".log";
  if (base.size() < 14 + kRank.size() + 1 + kExt.size() || !base.ends_with(kExt)) return std::nullopt;
  const std::string_view stamp = base.substr(0, 14);
  if (!isLaunchTimestamp(stamp) || base.substr(14, kRank.size()) != kRank) return std::nullopt;
  const auto rank = parseNumber(base.substr(14 + kRank.size(), base.size() - 14 - kRank.size() - kExt.size()));
  if (!rank) return std::nullopt;
  return std::pair{stamp, *rank};
}

void finishJob(RunFolderJob& job) {
  std::sort(job.files.begin(), job.files.end(), [](const RankFile& a, const RankFile& b) {
    return std::tie(a.rank, a.role, a.path) < std::tie(b.rank, b.role, b.path);
  });
  std::set<int> ranks;
  for (const auto& f : job.files) ranks.insert(f.rank);
  job.ranks.assign(ranks.begin(), ranks.end());
}

// One folder's rank files, by launch timestamp. Each node's launcher names its files with its
// own start time, so launches with disjoint ranks are one job; a rank seen again starts the next.
void eachRankLogJobs(std::string_view dir, std::map<std::string_view, std::vector<RankFile>>& byStamp,
                     std::vector<RunFolderJob>& out) {
  RunFolderJob job;
  std::set<int> ranks;
  auto flush = [&] {
    if (ranks.size() >= 2) {
      finishJob(job);
      out.push_back(std::move(job));
    }
    job = {};
    ranks.clear();
  };
  for (auto& [stamp, files] : byStamp) {
    const bool collides = std::any_of(files.begin(), files.end(), [&](const RankFile& f) { return ranks.count(f.rank); });
    if (collides) flush();
    if (job.files.empty()) {
      job.layout = RunFolderLayout::EachRankLog;
      job.root = std::string(dir);
      job.name = std::string(stamp);
    }
    for (auto& f : files) {
      ranks.insert(f.rank);
      job.files.push_back(std::move(f));
    }
  }
  flush();
}

struct TorchrunPath {
  std::string runDir;  // the folder holding attempt_<k>
  int attempt = 0;
  int localRank = 0;
  RankFileRole role = RankFileRole::Stdout;
  std::optional<int> node;
  std::string groupKey;  // the run folder with its node folder left out
};

std::optional<RankFileRole> torchrunRole(std::string_view base) {
  if (base == "stdout.log") return RankFileRole::Stdout;
  if (base == "stderr.log") return RankFileRole::Stderr;
  if (base == "error.json") return RankFileRole::ErrorJson;
  return std::nullopt;
}

// "node3", "node_3", "node-3".
std::optional<int> nodeFolder(std::string_view name) {
  if (!name.starts_with("node")) return std::nullopt;
  name.remove_prefix(4);
  if (!name.empty() && (name[0] == '_' || name[0] == '-')) name.remove_prefix(1);
  return parseNumber(name);
}

// torchrun's agent makes its run folder with tempfile.mkdtemp(prefix=f"{run_id}_"): the run id,
// '_' and eight characters of [a-z0-9_]. Another name is taken whole as the run id.
std::string_view runId(std::string_view runFolder) {
  constexpr std::size_t kSuffix = 8;
  if (runFolder.size() <= kSuffix + 1 || runFolder[runFolder.size() - kSuffix - 1] != '_') return runFolder;
  const std::string_view suffix = runFolder.substr(runFolder.size() - kSuffix);
  const bool random = std::all_of(suffix.begin(), suffix.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
  return random ? runFolder.substr(0, runFolder.size() - kSuffix - 1) : runFolder;
}

// ".../attempt_<k>/<local_rank>/<stdout.log|stderr.log|error.json>".
std::optional<TorchrunPath> torchrunPath(std::string_view path) {
  const SplitPath file = splitPath(path);
  const auto role = torchrunRole(file.base);
  if (!role) return std::nullopt;
  const SplitPath rankDir = splitPath(file.dir);
  const auto localRank = parseNumber(rankDir.base);
  const SplitPath attemptDir = splitPath(rankDir.dir);
  if (!localRank || !attemptDir.base.starts_with("attempt_")) return std::nullopt;
  const auto attempt = parseNumber(attemptDir.base.substr(8));
  if (!attempt) return std::nullopt;
  TorchrunPath out;
  out.runDir = std::string(attemptDir.dir);
  out.attempt = *attempt;
  out.localRank = *localRank;
  out.role = *role;
  // A node folder above the run gives the group rank; the group key leaves it out, and keeps
  // of the run folder below it only the run id (each node's agent adds its own random suffix).
  std::string_view rest = attemptDir.dir;
  std::string key;
  while (!rest.empty()) {
    const std::size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    const bool runFolder = slash == std::string_view::npos;
    if (auto n = nodeFolder(part); n && !out.node) {
      out.node = n;
      key += "node*/";
    } else if (!out.node) {
      key += std::string(part) + "/";
    } else {
      key += runFolder ? std::string(runId(part)) + "_*/" : std::string("*/");
    }
    if (runFolder) break;
    rest.remove_prefix(slash + 1);
  }
  out.groupKey = key + "attempt_" + std::to_string(*attempt);
  return out;
}

// Global ranks from node folders: group rank * local world size + local rank, when every node
// of the job has a folder index and the same number of local ranks.
void assignGlobalRanks(std::vector<std::pair<TorchrunPath, std::string>>& files, RunFolderJob& job) {
  std::map<int, std::set<int>> localByNode;
  bool allNodes = true;
  for (const auto& [p, path] : files) {
    if (!p.node) allNodes = false;
    else localByNode[*p.node].insert(p.localRank);
  }
  std::size_t perNode = localByNode.empty() ? 0 : localByNode.begin()->second.size();
  for (const auto& [node, locals] : localByNode)
    if (locals.size() != perNode || *locals.rbegin() + 1 != static_cast<int>(perNode)) allNodes = false;
  const bool oneRunFolder = std::all_of(files.begin(), files.end(), [&](const auto& f) { return f.first.runDir == files.front().first.runDir; });
  for (auto& [p, path] : files) {
    RankFile f;
    f.path = path;
    f.role = p.role;
    f.node = p.node;
    if (allNodes && !localByNode.empty()) {
      f.rank = *p.node * static_cast<int>(perNode) + p.localRank;
    } else {
      f.rank = p.localRank;
      f.localRank = true;
    }
    job.files.push_back(std::move(f));
  }
  job.root = oneRunFolder ? files.front().first.runDir : std::string();
}

// Each node's folders join one job when every node holds one run folder of the run id; a node
// with two (a rerun with the same run id) cannot be paired with the others' runs.
bool oneRunFolderPerNode(const std::vector<std::pair<TorchrunPath, std::string>>& files) {
  std::map<int, std::string_view> runByNode;
  for (const auto& [p, path] : files) {
    if (!p.node) return false;
    const auto [it, added] = runByNode.emplace(*p.node, p.runDir);
    if (!added && it->second != p.runDir) return false;
  }
  return true;
}

void torchrunJobs(std::map<std::string, std::vector<std::pair<TorchrunPath, std::string>>>& groups,
                  std::vector<RunFolderJob>& out) {
  for (auto& [key, files] : groups) {
    // Otherwise one job per run folder: a node's own, named by its folder, with its own ranks.
    std::map<std::string, std::vector<std::pair<TorchrunPath, std::string>>> byRun;
    const bool nodesKnown = oneRunFolderPerNode(files);
    for (auto& f : files) byRun[nodesKnown ? std::string() : f.first.runDir].push_back(std::move(f));
    for (auto& [run, members] : byRun) {
      RunFolderJob job;
      job.layout = RunFolderLayout::TorchrunLogDir;
      const std::string runDir = members.front().first.runDir;
      job.name = nodesKnown ? key
                            : std::string(splitPath(runDir).base) + "/attempt_" +
                                  std::to_string(members.front().first.attempt);
      assignGlobalRanks(members, job);
      finishJob(job);
      out.push_back(std::move(job));
    }
  }
}

}  // namespace

std::string_view layoutName(RunFolderLayout layout) {
  return layout == RunFolderLayout::EachRankLog ? "deepspeed-each-rank-log" : "torchrun-log-dir";
}

std::string_view roleName(RankFileRole role) {
  switch (role) {
    case RankFileRole::Stdout: return "stdout";
    case RankFileRole::Stderr: return "stderr";
    case RankFileRole::ErrorJson: return "error.json";
    case RankFileRole::Log: break;
  }
  return "log";
}

std::vector<RunFolderJob> recogniseJobs(const std::vector<std::string>& paths) {
  std::map<std::string_view, std::map<std::string_view, std::vector<RankFile>>> eachRank;  // dir -> stamp -> files
  std::map<std::string, std::vector<std::pair<TorchrunPath, std::string>>> torchrun;
  for (const std::string& path : paths) {
    const SplitPath sp = splitPath(path);
    if (auto name = eachRankLogName(sp.base)) {
      RankFile f;
      f.path = path;
      f.rank = name->second;
      eachRank[sp.dir][name->first].push_back(std::move(f));
    } else if (auto t = torchrunPath(path)) {
      std::string key = t->groupKey;
      torchrun[key].emplace_back(std::move(*t), path);
    }
  }
  std::vector<RunFolderJob> out;
  for (auto& [dir, byStamp] : eachRank) eachRankLogJobs(dir, byStamp, out);
  torchrunJobs(torchrun, out);
  return out;
}

}  // namespace dsls::analysis
