// Decides what a document is: a ds_config, a training log, or something dsls leaves alone.
#pragma once

#include "analysis/core/settings.h"
#include "analysis/facade/embedded_document.h"

#include <optional>
#include <span>
#include <string_view>

namespace dsls::analysis {

// PythonConfig: a Python source that builds one or more ds_configs as dicts.
// ShellConfig: a shell script that writes one or more ds_configs (heredocs, echo to a .json file).
// AccelerateConfig: an Accelerate config YAML whose deepspeed_config block sets ZeRO inline.
enum class DocumentKind { DsConfig, Log, PythonConfig, ShellConfig, AccelerateConfig, Other };

// `name` is a path or URI (only its last segment and extension matter); `languageId` may be empty.
DocumentKind classifyDocument(std::string_view name, std::string_view languageId, std::string_view text,
                              const Settings& settings);

// The language a document that may write configs is in, by its language id or extension:
// Python (.py), shell (.sh, .bash, .slurm, .sbatch; shellscript, sh, bash), YAML (.yaml, .yml;
// yaml); none for others.
std::optional<HostLanguage> hostLanguageOf(std::string_view name, std::string_view languageId);
// The same, for a document classifyDocument reads as one of those languages (not a log or JSON
// document, whatever its extension).
std::optional<HostLanguage> hostLanguageByName(std::string_view name, std::string_view languageId);
// The kind of a document of that language that holds a config.
DocumentKind documentKindOf(HostLanguage host);
// The language of a document of that kind; none for the kinds that are not embedded configs.
std::optional<HostLanguage> hostLanguageOf(DocumentKind kind);

// The file-name globs that mark a ds_config without any setting; configGlobs adds to them.
std::span<const char* const> builtinConfigGlobs();

// True when the file name matches the built-in ds_config globs or the user's.
bool nameLooksLikeDsConfig(std::string_view fileName, const Settings& settings);

}  // namespace dsls::analysis
