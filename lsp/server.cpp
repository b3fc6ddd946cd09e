#include "lsp/server.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>

namespace dsls::lsp {

using protocol::ErrorCode;
using protocol::Incoming;
using protocol::Json;

// ---- exactly-once replies ----------------------------------------------------------

class Server::ReplyState {
 public:
  ReplyState(Server& server, Json id, std::string method)
      : server_(server), id_(std::move(id)), method_(std::move(method)), started_(std::chrono::steady_clock::now()) {}
  ~ReplyState() {
    if (!done_ && !server_.exiting_) {
      server_.log_.error("{} produced no reply; answering with an internal error", method_);
      send(protocol::makeError(id_, ErrorCode::InternalError, "the request produced no reply"));
    }
  }
  bool done() const { return done_; }
  void send(const Json& message) {
    if (done_) {
      server_.log_.debug("dropping a second reply to {}", method_);
      return;
    }
    done_ = true;
    server_.pending_.erase(id_.dump());
    server_.send(message);
    server_.answerShutdownWhenIdle();
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started_);
    server_.log_.debug("{} answered in {} us", method_, us.count());
  }
  const Json& id() const { return id_; }
  const std::shared_ptr<std::atomic<bool>>& cancelFlag() const { return cancel_; }

 private:
  Server& server_;
  Json id_;
  std::string method_;
  bool done_ = false;
  std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
  std::chrono::steady_clock::time_point started_;
};

void Server::Reply::operator()(Json result) const { state_->send(protocol::makeResponse(state_->id(), std::move(result))); }

void Server::Reply::error(ErrorCode code, std::string_view message) const {
  state_->send(protocol::makeError(state_->id(), code, message));
}

bool Server::Reply::done() const { return state_->done(); }

analysis::Cancellation Server::Reply::cancellation() const { return analysis::Cancellation(state_->cancelFlag()); }

void Server::Reply::cancel() const { state_->cancelFlag()->store(true, std::memory_order_relaxed); }

// ---- construction and the loop ----------------------------------------------------------

Server::Server(Transport& transport, Logger& log, ServerOptions options)
    : transport_(transport),
      log_(log),
      options_(options),
      strand_(boost::asio::make_strand(io_)),
      scheduler_(options.analysisThreads, options.backgroundThreads) {
  bindHandlers();
}

Server::~Server() {
  exiting_ = true;
  log_.setMirror(nullptr);
  scheduler_.join();
}

int Server::run() {
  auto guard = boost::asio::make_work_guard(io_);
  transport_.start([this](std::string body) { onMessage(std::move(body)); },
                   [this](std::string reason) {
                     boost::asio::post(strand_, [this, reason] {
                       log_.info("{}; stopping", reason);
                       finish(phase_ == Phase::ShuttingDown ? 0 : 1);
                     });
                   });
  io_.run();
  transport_.flush();
  return exitCode_;
}

void Server::answerShutdownWhenIdle() {
  // shutdown is answered after every request received before it, so none is left unanswered.
  if (!shutdownReply_ || pending_.size() > 1) return;
  Reply reply = std::move(*shutdownReply_);
  shutdownReply_.reset();
  reply(nullptr);
}

void Server::finish(int code) {
  if (exiting_) return;
  // Requests still waiting (e.g. for an analysis) are answered before the process ends.
  std::vector<std::shared_ptr<ReplyState>> open;
  for (auto& [id, weak] : pending_)
    if (auto state = weak.lock(); state && !state->done()) open.push_back(state);
  // Long jobs stop too, so the process does not wait for them to end.
  for (auto& state : open) {
    Reply(state).cancel();
    Reply(state).error(ErrorCode::RequestFailed, "the server is exiting");
  }
  exitCode_ = code;
  exiting_ = true;
  log_.setMirror(nullptr);
  io_.stop();
}

void Server::onMessage(std::string body) {
  boost::asio::post(strand_, [this, body = std::move(body)]() mutable {
    if (exiting_) return;
    protocol::Incoming message = protocol::parseOwnedMessage(std::move(body));
    // The parsed message holds everything; a didOpen body can be tens of MB.
    std::string().swap(body);
    dispatch(message);
  });
}

void Server::send(const Json& message) { transport_.send(protocol::serialize(message)); }

void Server::notify(std::string_view method, Json params) { send(protocol::makeNotification(method, std::move(params))); }

void Server::request(std::string_view method, Json params, std::function<void(const Json&, const Json&)> done) {
  // A client that never answers must not grow this map without bound.
  if (outgoing_.size() >= 100) {
    log_.warn("client has 100 unanswered requests; not sending {}", method);
    return;
  }
  long long id = nextOutgoingId_++;
  outgoing_[id] = std::move(done);
  send(protocol::makeRequest(id, method, std::move(params)));
}

// ---- dispatch ----------------------------------------------------------------------------

void Server::dispatch(Incoming& msg) {
  switch (msg.kind) {
    case Incoming::Kind::Request: return dispatchRequest(msg);
    case Incoming::Kind::Notification: return dispatchNotification(msg);
    case Incoming::Kind::Response: return onResponse(msg);
    case Incoming::Kind::Invalid:
      log_.error("invalid message: {}", msg.errorMessage);
      send(protocol::makeError(msg.id, msg.errorCode, msg.errorMessage));
      return;
  }
}

void Server::dispatchRequest(const Incoming& msg) {
  auto state = std::make_shared<ReplyState>(*this, msg.id, msg.method);
  Reply reply(state);
  if (phase_ == Phase::Uninitialized && msg.method != "initialize")
    return reply.error(ErrorCode::ServerNotInitialized, "the server has not been initialized");
  if (phase_ == Phase::ShuttingDown)
    return reply.error(ErrorCode::InvalidRequest, "the server is shutting down");
  if (phase_ != Phase::Uninitialized && msg.method == "initialize")
    return reply.error(ErrorCode::InvalidRequest, "initialize was already received");
  auto handler = requests_.find(msg.method);
  if (handler == requests_.end()) return reply.error(ErrorCode::MethodNotFound, "unknown method " + msg.method);

  std::string key = msg.id.dump();
  if (pending_.count(key)) log_.warn("request id {} is reused while still pending", key);
  pending_[key] = state;
  try {
    handler->second(msg.params, reply);
  } catch (const Json::exception& e) {
    if (!reply.done()) reply.error(ErrorCode::InvalidParams, std::string("invalid params: ") + e.what());
  } catch (const std::invalid_argument& e) {
    if (!reply.done()) reply.error(ErrorCode::InvalidParams, std::string("invalid params: ") + e.what());
  } catch (const std::exception& e) {
    log_.error("{} failed: {}", msg.method, e.what());
    if (!reply.done()) reply.error(ErrorCode::InternalError, std::string("internal error: ") + e.what());
  }
}

void Server::dispatchNotification(Incoming& msg) {
  if (phase_ == Phase::Uninitialized && msg.method != "exit") {
    log_.debug("dropping {} received before initialize", msg.method);
    return;
  }
  auto handler = notifications_.find(msg.method);
  if (handler == notifications_.end()) {
    if (msg.method.rfind("$/", 0) != 0) log_.info("ignoring unknown notification {}", msg.method);
    return;
  }
  try {
    handler->second(std::move(msg.params));
  } catch (const std::exception& e) {
    log_.error("{} failed: {}", msg.method, e.what());
  }
}

void Server::onResponse(const Incoming& msg) {
  if (!msg.id.is_number_integer()) return;
  auto it = outgoing_.find(msg.id.get<long long>());
  if (it == outgoing_.end()) {
    log_.debug("response to an unknown request {}", msg.id.dump());
    return;
  }
  auto done = std::move(it->second);
  outgoing_.erase(it);
  try {
    done(msg.result, msg.error);
  } catch (const std::exception& e) {
    log_.error("handling a client response failed: {}", e.what());
  }
}

void Server::onCancelRequest(const Json& params) {
  if (!params.is_object() || !params.contains("id")) return;
  auto it = pending_.find(params["id"].dump());
  if (it == pending_.end()) return;  // already answered: nothing to do
  if (auto state = it->second.lock(); state && !state->done()) {
    Reply(state).cancel();  // the work behind it stops too
    Reply(state).error(ErrorCode::RequestCancelled, "request cancelled");
  }
  pending_.erase(params["id"].dump());
}

}  // namespace dsls::lsp
