#include "analysis/config/config_analysis.h"

#include "analysis/config/release_range.h"
#include "analysis/config/rule.h"
#include "analysis/config/rules/text_encoding.h"
#include "analysis/core/limits.h"
#include "analysis/json/reparse.h"

#include <algorithm>

namespace dsls::analysis {

namespace {

json::Document parseReusing(const std::string& text, const Cancellation& cancel, const ConfigAnalysis* previous,
                            bool& reused) {
  json::ParseOptions options;
  options.cancel = cancel;
  if (previous) {
    if (auto doc = json::reparseAfterEdit(previous->document(), previous->text(), text, options)) {
      reused = true;
      return std::move(*doc);
    }
  }
  return json::parse(text, options);
}

}  // namespace

ConfigAnalysis::ConfigAnalysis(std::shared_ptr<const std::string> text, const Settings& settings,
                               const Cancellation& cancel, const ConfigAnalysis* previous)
    : text_(text ? std::move(text) : std::make_shared<const std::string>()),
      syntaxOnly_(text_->size() > kMaxConfigBytes),
      settings_(settings),
      doc_(parseReusing(*text_, cancel, previous, reusedParse_)),
      model_(config::buildModel(doc_, settings_)) {
  cancel.throwIfRequested();
  // Bytes that are not text: one finding says so, rather than one per byte run and rule.
  if (auto notText = config::notUtf8Finding(*text_)) {
    findings_.push_back(std::move(*notText));
    return;
  }
  if (!syntaxOnly_ && settings_.deepspeedVersion.empty() && !settings_.deepspeedReleases.empty()) {
    findings_ = config::findingsOverReleases(*text_, doc_, settings_, [&] { cancel.throwIfRequested(); });
  } else {
    runRules(cancel);
  }
  std::stable_sort(findings_.begin(), findings_.end(),
                   [](const Finding& a, const Finding& b) { return a.range.begin < b.range.begin; });
}

void ConfigAnalysis::runRules(const Cancellation& cancel) {
  config::RuleContext ctx{*text_, doc_, model_, settings_};
  for (const auto& rule : config::configRules()) {
    cancel.throwIfRequested();
    if (!syntaxOnly_ || rule.group == config::RuleGroup::Json) rule.check(ctx, findings_);
  }
}

}  // namespace dsls::analysis
