// Decides what a document is: a ds_config, a training log, or something dsls leaves alone.
#pragma once

#include "analysis/core/settings.h"

#include <span>
#include <string_view>

namespace dsls::analysis {

// PythonConfig: a Python source that builds one or more ds_configs as dicts.
enum class DocumentKind { DsConfig, Log, PythonConfig, Other };

// `name` is a path or URI (only its last segment and extension matter); `languageId` may be empty.
DocumentKind classifyDocument(std::string_view name, std::string_view languageId, std::string_view text,
                              const Settings& settings);

// The file-name globs that mark a ds_config without any setting; configGlobs adds to them.
std::span<const char* const> builtinConfigGlobs();

// True when the file name matches the built-in ds_config globs or the user's.
bool nameLooksLikeDsConfig(std::string_view fileName, const Settings& settings);

}  // namespace dsls::analysis
