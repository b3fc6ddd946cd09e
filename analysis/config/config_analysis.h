// Everything dsls knows about one ds_config text: the positioned JSON, the effective
// model, and the rule findings. Built once per revision; features read it.
#pragma once

#include "analysis/config/config_model.h"
#include "analysis/core/cancel.h"
#include "analysis/core/finding.h"
#include "analysis/core/settings.h"
#include "analysis/json/document.h"

#include <memory>
#include <string>
#include <vector>

namespace dsls::analysis {

class ConfigAnalysis {
 public:
  // The text is shared (the server's open document keeps the same one); nodes point into it.
  // A requested `cancel` stops it between steps with analysis::Cancelled. `previous`, the
  // analysis of an earlier text of the same document, lets an edit inside one value reuse its
  // parse (json/reparse.h); the result is the same without it.
  ConfigAnalysis(std::shared_ptr<const std::string> text, const Settings& settings, const Cancellation& cancel = {},
                 const ConfigAnalysis* previous = nullptr);
  ConfigAnalysis(std::string text, const Settings& settings)
      : ConfigAnalysis(std::make_shared<const std::string>(std::move(text)), settings) {}
  ConfigAnalysis(const ConfigAnalysis&) = delete;  // the model points into the document
  ConfigAnalysis& operator=(const ConfigAnalysis&) = delete;

  const std::string& text() const { return *text_; }
  const json::Document& document() const { return doc_; }
  const config::ConfigModel& model() const { return model_; }
  const Settings& settings() const { return settings_; }
  // Findings of every rule, before the user's rule overrides.
  const std::vector<Finding>& findings() const { return findings_; }
  // The text is over kMaxConfigBytes (analysis/core/limits.h): only the rules about the file
  // as JSON ran (syntax, comments and trailing commas, duplicate keys), and the editor
  // features that read the config answer nothing.
  bool syntaxOnly() const { return syntaxOnly_; }
  // The tree is the previous analysis's, moved past an edit inside one value (no parse ran).
  bool reusedParse() const { return reusedParse_; }

 private:
  void runRules(const Cancellation& cancel);
  std::shared_ptr<const std::string> text_;
  bool syntaxOnly_;
  bool reusedParse_ = false;
  Settings settings_;
  json::Document doc_;
  config::ConfigModel model_;
  std::vector<Finding> findings_;
};

}  // namespace dsls::analysis
