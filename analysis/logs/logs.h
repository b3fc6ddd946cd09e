// Public interface of the training-log analyser (namespace dsls::logs).
#pragma once

#include "analysis/logs/analyze.h"
#include "analysis/logs/diagnostics.h"
#include "analysis/logs/lines/line_prefix.h"
#include "analysis/logs/log_analyzer.h"
#include "analysis/logs/report/log_report.h"
