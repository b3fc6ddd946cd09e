#include "cli/fixer.h"

#include "analysis/facade/features.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace dsls::cli {
namespace {

std::shared_ptr<const analysis::DocumentAnalysis> analyzeFiltered(const std::string& name, const std::string& text,
                                                                  const analysis::Settings& settings,
                                                                  const FindingFilter& keep) {
  // The command line has already decided the file is a config (it may be one named explicitly).
  auto full = analysis::analyzeDocument(name, "", text, settings, analysis::DocumentKind::DsConfig);
  auto filtered = std::make_shared<analysis::DocumentAnalysis>(*full);
  std::erase_if(filtered->findings, [&](const analysis::Finding& f) { return !keep(f); });
  return filtered;
}

}  // namespace

std::string applyEdits(std::string_view text, std::vector<analysis::TextEdit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const analysis::TextEdit& a, const analysis::TextEdit& b) {
    return a.range.begin < b.range.begin;
  });
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  for (const auto& e : edits) {
    std::size_t begin = std::min(e.range.begin, text.size());
    std::size_t end = std::min(std::max(e.range.end, begin), text.size());
    if (begin < at) continue;  // overlaps an earlier edit: left for the next pass
    out.append(text.substr(at, begin - at));
    out.append(e.newText);
    at = end;
  }
  out.append(text.substr(at));
  return out;
}

FixOutcome analyzeAndFix(const std::string& name, std::string text, const analysis::Settings& settings,
                         const FindingFilter& keep, bool applyFixes) {
  FixOutcome out;
  out.analysis = analyzeFiltered(name, text, settings, keep);
  for (int pass = 0; applyFixes && pass < kMaxFixPasses; ++pass) {
    auto all = analysis::fixAll(*out.analysis);
    if (!all || all->edits.empty()) break;
    std::string next = applyEdits(text, all->edits);
    if (next == text) break;
    out.fixed += all->findings.size();
    text = std::move(next);
    out.analysis = analyzeFiltered(name, text, settings, keep);
  }
  out.text = std::move(text);
  return out;
}

bool writeFileAtomically(const std::string& path, std::string_view content, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path target = fs::canonical(path, ec);
  if (ec) {
    error = ec.message();
    return false;
  }
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) {
    error = std::strerror(errno);
    return false;
  }
  // Appended, not "..." + std::string: that trips GCC 12's -Wrestrict false positive (PR 105329).
  std::string temp =
      (target.parent_path() / std::string(".").append(target.filename().string()).append(".dsls-XXXXXX")).string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    error = std::string("cannot create a temporary file next to it: ") + std::strerror(errno);
    return false;
  }
  auto fail = [&](const char* what) {
    error = std::string(what) + ": " + std::strerror(errno);
    ::close(fd);
    ::unlink(temp.c_str());
    return false;
  };
  for (std::size_t done = 0; done < content.size();) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot write");
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, st.st_mode & 07777) != 0) return fail("cannot set permissions");
  // Only root can give a file to someone else; for anyone else the owner is already right.
  if (::geteuid() == 0 && ::fchown(fd, st.st_uid, st.st_gid) != 0) return fail("cannot keep the owner");
  if (::fsync(fd) != 0) return fail("cannot flush");
  if (::close(fd) != 0) {
    error = std::string("cannot write: ") + std::strerror(errno);
    ::unlink(temp.c_str());
    return false;
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    error = std::string("cannot replace the file: ") + std::strerror(errno);
    ::unlink(temp.c_str());
    return false;
  }
  return true;
}

}  // namespace dsls::cli
