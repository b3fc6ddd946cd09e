// Who reads a ds_config, inferred from the project that holds it: the launch scripts, YAML files
// and Python code that name the file, and how they pass it (read-only).
#pragma once

#include "analysis/core/settings.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::workspace {

struct InferredLauncher {
  analysis::Launcher launcher = analysis::Launcher::Unknown;
  // Where it was seen, for messages: "scripts/train.sh:12 passes it with --deepspeed_config".
  std::string evidence;
  // What HF Trainer fills "bf16": {"enabled": "auto"} with: --bf16 on that command line, or
  // bf16: in the framework YAML that names the file; nothing when they do not say.
  std::optional<bool> bf16;
};

// The value of --bf16 on a command line: "--bf16", "--bf16 True", "--bf16=false"; nothing without it.
std::optional<bool> bf16Flag(std::string_view commandLine);

// How one line (a shell command joined across its continuations, a YAML entry, a Python call)
// hands `reference`, a path naming the config, to its reader; nullopt when the line does not say.
// `kind` is the file's kind: "shell", "yaml" or "python".
std::optional<analysis::Launcher> launcherOfLine(std::string_view line, std::string_view reference,
                                                 std::string_view kind);

// A JSON config that a launch script, a YAML file or a Python source hands to its reader, as
// the document names it: where (byte offsets of the path as written), the file it resolves to,
// and who reads it.
struct ConfigLink {
  analysis::TextRange range;
  std::string path;
  analysis::Launcher launcher = analysis::Launcher::Unknown;
};

// The config files `text` (the document at `documentPath`) hands to a reader, each resolved
// against `folders` in order (the document's folder and those above it, as pinSearchFolders
// gives them) and kept when it exists there. A path with a variable in it is left out.
std::vector<ConfigLink> configLinks(const std::string& documentPath, std::string_view text,
                                    const std::vector<std::string>& folders);

// The launcher of the config at `configPath`, from the files under `projectRoot` that name it;
// nothing when none does or they disagree. The project's files are read once and kept for a
// short while.
std::optional<InferredLauncher> inferLauncher(const std::string& configPath, const std::string& projectRoot);

}  // namespace dsls::workspace
