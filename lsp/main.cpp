// The dsls binary: an LSP server on stdio by default, and subcommands for the command line.
#include "cli/commands.h"
#include "lsp/logger.h"
#include "lsp/server.h"
#include "lsp/transport.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {

void printHelp() {
  std::printf(
      "dsls %s: the DeepSpeed language server\n\n"
      "usage:\n"
      "  dsls [--stdio] [--log-level LEVEL]   serve the Language Server Protocol on stdin/stdout\n",
      DSLS_VERSION);
  for (const auto& c : dsls::cli::commands()) std::printf("  dsls %-31s %s\n", c.name, c.summary);
  std::printf(
      "\noptions:\n"
      "  --stdio              serve on stdin/stdout (the default)\n"
      "  --log-level LEVEL    error, warning, info (default) or debug; logs go to stderr\n"
      "  --version            print the version\n"
      "  --help               print this help\n\n"
      "Run 'dsls COMMAND --help' for a command's options.\n");
}

// Blocks of 1 MiB or more (a document's text, a large message, the tree's arenas) are mapped
// on their own and go back to the system when freed. glibc otherwise raises this threshold
// to the size of the last such block freed, after which tens of MB of a closed or superseded
// document stay in the heap: the 50 MiB log peaked at 104 MiB instead of 59
// (docs/benchmarks.md, "Large documents").
void keepLargeBlocksMapped() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

int serve(dsls::lsp::LogLevel level) {
  // A client that disappears must surface as a write error, not kill the process.
  std::signal(SIGPIPE, SIG_IGN);
  keepLargeBlocksMapped();
  dsls::lsp::Logger log(level);
  dsls::lsp::Transport transport(STDIN_FILENO, STDOUT_FILENO, log);
  dsls::lsp::Server server(transport, log);
  log.info("dsls {} serving on stdio", DSLS_VERSION);
  int code = server.run();
  transport.flush();
  std::fflush(stderr);
  // Leave without running the destructors: the reader thread may still be blocked in
  // read(), and joining the pool would wait for analyses still running (seconds for a
  // large pasted log) although nothing they hold needs saving.
  std::_Exit(code);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty()) {
    for (const auto& c : dsls::cli::commands())
      if (args[0] == c.name) return c.run(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  auto level = dsls::lsp::LogLevel::Info;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--stdio") continue;
    if (a == "--version" || a == "-V") {
      std::printf("dsls %s\n", DSLS_VERSION);
      return 0;
    }
    if (a == "--help" || a == "-h") {
      printHelp();
      return 0;
    }
    if (a == "--log-level" || a.rfind("--log-level=", 0) == 0) {
      std::string value = a == "--log-level" ? (i + 1 < args.size() ? args[++i] : "") : a.substr(12);
      auto parsed = dsls::lsp::parseLogLevel(value);
      if (!parsed) {
        std::fprintf(stderr, "dsls: --log-level takes error, warning, info or debug, not '%s'\n", value.c_str());
        return 2;
      }
      level = *parsed;
      continue;
    }
    // Editors pass extra flags of their own (e.g. --clientProcessId); they are not fatal.
    if (a.rfind("--clientProcessId", 0) == 0) {
      if (a == "--clientProcessId") ++i;
      continue;
    }
    std::fprintf(stderr, "dsls: unknown argument '%s' (see dsls --help)\n", a.c_str());
    return 2;
  }
  return serve(level);
}
