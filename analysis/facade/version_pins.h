// Reads an exact version pin of a package from the text of a requirements file,
// pyproject.toml, setup.cfg or a conda environment.yml. Pure: the caller reads the files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::analysis {

// "deepspeed==0.14.2" (pip), "deepspeed=0.14.2" (conda), "deepspeed===0.14.2", in any of those
// files; ranges (">=", "~=", "<") are not pins and give nullopt. Comments are skipped.
std::optional<std::string> findVersionPin(std::string_view fileText, std::string_view package);

// "deepspeed-0.14.2.dist-info" -> "0.14.2" when the directory name is that package's.
std::optional<std::string> versionFromDistInfo(std::string_view directoryName, std::string_view package);

// The DeepSpeed releases dsls knows (oldest first) that a PEP 440 specifier admits, as pip would
// choose among them; every known release for an empty specifier. nullopt when it is malformed.
std::optional<std::vector<std::string>> admittedDeepspeedReleases(std::string_view specifier);

}  // namespace dsls::analysis
