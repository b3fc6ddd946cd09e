// The catalogue names release numbers catalog::Version; it is the one Version type of analysis/core.
#pragma once

#include "analysis/core/version.h"

namespace dsls::catalog {

using Version = analysis::Version;

}  // namespace dsls::catalog
