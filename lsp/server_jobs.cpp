// Long jobs (dsls.diagnoseText, dsls.diagnoseFolder) on the background lane: each gets the
// cancellation of its request, so $/cancelRequest stops the work and frees its thread, and,
// where the client shows it, work-done progress ($/progress begin, report, end) whose cancel
// button cancels the same token.
#include "lsp/server.h"

#include <boost/asio/post.hpp>

namespace dsls::lsp {

using protocol::ErrorCode;
using protocol::Json;

struct Server::WorkDone {
  Json token;
  Reply reply;   // cancelled by window/workDoneProgress/cancel
  bool begun = false, ended = false;
  int percentage = 0;
};

namespace {

Json progressParams(const Json& token, Json value) { return Json{{"token", token}, {"value", std::move(value)}}; }

}  // namespace

std::shared_ptr<Server::WorkDone> Server::beginWorkDone(const std::string& title, std::optional<Json> token,
                                                        const Reply& reply) {
  if (!token && !caps_.workDoneProgress) return nullptr;
  auto progress = std::make_shared<WorkDone>(WorkDone{token.value_or(Json()), reply});
  auto begin = [this, progress, title] {
    if (progress->ended) return;
    progress->begun = true;
    workDone_[progress->token.dump()] = progress;
    notify("$/progress", progressParams(progress->token, {{"kind", "begin"}, {"title", title},
                                                          {"cancellable", true}, {"percentage", 0}}));
  };
  if (token) {  // the client made the token with the request
    begin();
    return progress;
  }
  progress->token = "dsls/" + std::to_string(nextWorkDoneToken_++);
  // Progress is sent only once the client has accepted the token.
  request("window/workDoneProgress/create", {{"token", progress->token}}, [begin](const Json&, const Json& error) {
    if (error.is_null()) begin();
  });
  return progress;
}

void Server::reportWorkDone(WorkDone& progress, int percentage, const std::string& message) {
  if (!progress.begun || progress.ended || percentage <= progress.percentage) return;
  progress.percentage = percentage;
  notify("$/progress", progressParams(progress.token, {{"kind", "report"}, {"percentage", percentage}, {"message", message}}));
}

void Server::endWorkDone(WorkDone& progress, const std::string& message) {
  if (progress.ended) return;
  progress.ended = true;
  if (!progress.begun) return;
  workDone_.erase(progress.token.dump());
  notify("$/progress", progressParams(progress.token, {{"kind", "end"}, {"message", message}}));
}

void Server::onWorkDoneProgressCancel(const Json& params) {
  if (!params.is_object() || !params.contains("token")) return;
  auto it = workDone_.find(params["token"].dump());
  if (it == workDone_.end()) return;
  Reply reply = it->second->reply;
  reply.cancel();
  if (!reply.done()) reply.error(ErrorCode::RequestCancelled, "request cancelled");
}

void Server::runBackgroundJob(std::string title, std::optional<Json> workDoneToken, Reply reply, JobWork work) {
  std::shared_ptr<WorkDone> progress = beginWorkDone(title, std::move(workDoneToken), reply);
  analysis::Cancellation cancel = reply.cancellation();
  scheduler_.post(Lane::Background, [this, title, reply = std::move(reply), progress, cancel,
                                     work = std::move(work)]() mutable {
    // Reports go to the strand, at most one per percent.
    int lastPercentage = 0;
    JobProgress onProgress = [&](double share, const std::string& message) {
      int percentage = static_cast<int>(std::clamp(share, 0.0, 1.0) * 100.0);
      if (!progress || percentage <= lastPercentage) return;
      lastPercentage = percentage;
      boost::asio::post(strand_, [this, progress, percentage, message] { reportWorkDone(*progress, percentage, message); });
    };
    Json result;
    std::optional<ErrorCode> code;
    std::string failure;
    try {
      if (cancel.requested()) {
        log_.debug("{} was cancelled before it started", title);
        throw analysis::Cancelled();
      }
      try {
        result = work(cancel, onProgress);
      } catch (const analysis::Cancelled&) {
        log_.info("{} stopped: the request was cancelled", title);
        throw;
      }
    } catch (const analysis::Cancelled&) {
      code = ErrorCode::RequestCancelled;
      failure = "request cancelled";
    } catch (const std::invalid_argument& e) {
      code = ErrorCode::InvalidParams;
      failure = e.what();
    } catch (const std::exception& e) {
      code = ErrorCode::InternalError;
      failure = std::string("diagnosis failed: ") + e.what();
    }
    // The reply moves to the strand so its bookkeeping is only ever touched there.
    boost::asio::post(strand_, [this, reply = std::move(reply), progress, result = std::move(result), code, failure] {
      if (progress) endWorkDone(*progress, code ? failure : "done");
      if (exiting_ || reply.done()) return;
      if (code) return reply.error(*code, failure);
      reply(result);
    });
  });
}

}  // namespace dsls::lsp
