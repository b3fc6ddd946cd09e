// Whether a config is exposed to the known overlap_comm races, by ZeRO stage, effective
// flags and DeepSpeed/PyTorch versions. The bug table is declared once in
// analysis/facts/overlap_race_releases.cpp; the rule, the hover and the log diagnosis all read it.
#pragma once

#include "analysis/config/config_model.h"
#include "analysis/facts/overlap_race_releases.h"

#include <string>
#include <string_view>
#include <vector>

namespace dsls::config {

// The bug table itself is a domain fact shared with the log analyser.
using facts::RaceBug;
using facts::raceBugs;

struct RaceAssessment {
  enum class Verdict {
    NotApplicable,   // overlap_comm is effectively off, or not a multi-rank ZeRO run
    Fixed,           // the target DeepSpeed has every fix
    AtRisk,          // known version in an affected range
    VersionUnknown,  // ZeRO-1/2 with overlap on, DeepSpeed version unknown
  } verdict = Verdict::NotApplicable;
  std::vector<const RaceBug*> bugs;  // those that apply (for VersionUnknown: those that could)
  std::string reason;                // for NotApplicable / Fixed, in plain words
};

RaceAssessment assessRace(const ConfigModel& model, const analysis::Settings& settings);

// "DeepSpeed 0.14.2 (from requirements.txt)" or "the DeepSpeed version (unknown)".
std::string describeVersion(const ConfigModel& model, const analysis::Settings& settings);

}  // namespace dsls::config
