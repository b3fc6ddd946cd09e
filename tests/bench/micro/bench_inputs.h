// Inputs shared by the micro-benchmarks: the 3 KB fixture config, a 5 MB config built
// from it, and synthetic multi-rank log lines. Built once, deterministic.
#pragma once

#include <string>
#include <vector>

namespace dsls::bench {

const std::string& config3k();
const std::string& config5m();
// Log lines of a typical training run (mostly metrics and logger lines, few fingerprints).
const std::vector<std::string>& trainingLogLines();
// The same lines joined with "\n", as a whole document.
const std::string& trainingLogText();

}  // namespace dsls::bench
