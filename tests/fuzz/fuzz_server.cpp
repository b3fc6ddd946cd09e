// The whole server in-process: lsp::Server and its stdio Transport on a pipe pair,
// fed a session of LSP messages.
//
// Input: one message body per line (an initialize is sent first), or, when the first
// byte is 'R', raw bytes for the input stream. A shutdown request with a known id ends
// each session; the server answers it only after every earlier request, so the
// features behind those requests run before the session closes.
// Properties: the server never crashes or hangs; every frame it writes is well formed;
// every request with an id gets exactly one response.
#include "tests/fuzz/fuzz_check.h"
#include "lsp/logger.h"
#include "lsp/server.h"
#include "lsp/transport.h"
#include "protocol/framing.h"
#include "protocol/jsonrpc.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <memory>
#include <poll.h>
#include <string>
#include <string_view>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {


constexpr std::string_view kInitialize =
    R"({"jsonrpc":"2.0","id":"fuzz-init","method":"initialize","params":{"capabilities":{"general":)"
    R"({"positionEncodings":["utf-16"]},"textDocument":{"hover":{"contentFormat":["markdown"]}}},)"
    R"("initializationOptions":{"deepspeedVersion":"0.14.2"}}})";
constexpr std::string_view kInitialized = R"({"jsonrpc":"2.0","method":"initialized","params":{}})";
constexpr std::string_view kShutdown = R"({"jsonrpc":"2.0","id":"fuzz-end","method":"shutdown"})";

void writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n <= 0) return;  // the server stopped reading: the session is over anyway
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// The server's side of a session must not take the process down with SIGPIPE.
struct IgnoreSigpipe {
  IgnoreSigpipe() { std::signal(SIGPIPE, SIG_IGN); }
} ignoreSigpipe;

// A session's objects; members are destroyed in reverse order, the server first.
struct Session {
  std::unique_ptr<dsls::lsp::Logger> log;
  std::unique_ptr<dsls::lsp::Transport> transport;
  std::unique_ptr<dsls::lsp::Server> server;
};

// The id the server must answer for this body, or "" when it owes no reply to an id:
// requests, and invalid messages whose id could be read, are answered exactly once.
std::string answeredId(const std::string& body) {
  auto msg = dsls::protocol::parseMessage(body);
  using Kind = dsls::protocol::Incoming::Kind;
  if ((msg.kind != Kind::Request && msg.kind != Kind::Invalid) || msg.id.is_null()) return {};
  return msg.id.dump();
}

bool isExit(const std::string& body) {
  auto msg = nlohmann::json::parse(body, nullptr, false);
  return msg.is_object() && msg.contains("method") && msg["method"] == "exit";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const bool raw = !input.empty() && input[0] == 'R';

  // Built before the server starts, so the pipes only ever carry whole sessions.
  std::string stream = dsls::protocol::frame(kInitialize) + dsls::protocol::frame(kInitialized);
  std::map<std::string, int> requestIds;  // serialised id -> how many requests used it
  if (raw) {
    stream.append(input.substr(1));
  } else {
    std::size_t start = 0;
    while (start <= input.size()) {
      std::size_t end = input.find('\n', start);
      if (end == std::string_view::npos) end = input.size();
      std::string body(input.substr(start, end - start));
      start = end + 1;
      if (body.empty()) continue;
      // `exit` would end the session before the shutdown reply: the lifecycle
      // transcripts cover exit, so here it becomes an unknown notification.
      if (isExit(body)) body = R"({"jsonrpc":"2.0","method":"fuzz/exit"})";
      if (auto id = answeredId(body); !id.empty()) ++requestIds[id];
      stream += dsls::protocol::frame(body);
    }
    stream += dsls::protocol::frame(kShutdown);
  }

  int in[2], out[2];
  CHECK(::pipe2(in, O_CLOEXEC) == 0 && ::pipe2(out, O_CLOEXEC) == 0);

  // Reads everything the server writes until it closes its end.
  std::string written;
  std::atomic<bool> sawShutdownReply{false};
  std::thread drain([&] {
    dsls::protocol::FrameReader frames;
    std::vector<dsls::protocol::FrameEvent> events;
    char buf[65536];
    for (;;) {
      ssize_t n = ::read(out[0], buf, sizeof buf);
      if (n <= 0) break;
      written.append(buf, static_cast<std::size_t>(n));
      frames.feed(std::string_view(buf, static_cast<std::size_t>(n)), events);
      for (const auto& e : events) {
        CHECK(e.kind == dsls::protocol::FrameEvent::Kind::Message);  // the server only writes good frames
        if (e.text.find("\"fuzz-end\"") != std::string::npos) sawShutdownReply = true;
      }
      events.clear();
    }
  });
  std::thread feed([&] {
    writeAll(in[1], stream);
    // Wait (bounded) for the shutdown reply, then end the input.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(raw ? 0 : 5);
    while (!sawShutdownReply && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ::close(in[1]);
  });

  Session session;
  session.log = std::make_unique<dsls::lsp::Logger>(dsls::lsp::LogLevel::Error);
  session.transport = std::make_unique<dsls::lsp::Transport>(in[0], out[1], *session.log);
  dsls::lsp::ServerOptions options;
  options.debounce = std::chrono::milliseconds(1);
  session.server = std::make_unique<dsls::lsp::Server>(*session.transport, *session.log, options);
  session.server->run();
  feed.join();
  // The input's write end is closed, so the reader reaches its end and returns. Until it
  // has, it may still read in[0]: closing that early would let the next session's pipe
  // reuse the descriptor and its bytes go to this session's reader.
  session.transport->joinReader();
  session.transport->flush();
  session.server.reset();  // joins the analysis threads
  session.transport.reset();  // joins the writer
  // Every write is done, so the drain ends once this end of the pipe closes.
  ::close(out[1]);
  drain.join();
  ::close(in[0]);
  ::close(out[0]);

  if (!raw) {
    CHECK(sawShutdownReply);
    // Exactly one response per request id (ids used once by the input).
    std::map<std::string, int> responses;
    dsls::protocol::FrameReader frames;
    std::vector<dsls::protocol::FrameEvent> events;
    frames.feed(written, events);
    for (const auto& e : events) {
      auto msg = nlohmann::json::parse(e.text, nullptr, false);
      CHECK(msg.is_object());
      if (!msg.contains("method") && msg.contains("id")) ++responses[msg["id"].dump()];
    }
    for (const auto& [id, count] : requestIds) {
      if (count != 1 || id == "\"fuzz-init\"" || id == "\"fuzz-end\"") continue;
      if (responses[id] != 1) std::fprintf(stderr, "request %s answered %d times\n", id.c_str(), responses[id]);
      CHECK(responses[id] == 1);
    }
  }
  return 0;
}
