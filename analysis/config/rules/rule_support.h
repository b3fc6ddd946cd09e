// Helpers shared by the ds_config rules: walking the document with catalog paths,
// reading values, how strictly DeepSpeed parses a section in the target release,
// and a few text edits (remove or move a member) that json_edits.h does not offer.
#pragma once

#include "analysis/catalog/catalog.h"
#include "analysis/config/json_edits.h"
#include "analysis/config/rule.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsls::config::rules {

// What every rule file names; a rule file's `using namespace rules;` brings them in.
using analysis::Finding;
using analysis::Severity;
using analysis::Tag;

// ---- values ----
bool isAuto(const json::Node& n);
bool isTrue(const json::Node& n);   // the JSON literal true
bool isFalse(const json::Node& n);  // the JSON literal false
std::optional<double> numberOf(const json::Node& n);
// The object value of `member`, or nullptr when it is missing or not an object.
const json::Node* objectOf(const json::Member* member);
// A JSON string literal for `s` (quotes and escapes).
std::string quote(std::string_view s);
// "true"/"1.5"/"\"cpu\"" style text for a value as it is written (its source text).
std::string_view sourceOf(std::string_view text, const json::Node& n);

// ---- walking ----
struct Visit {
  const json::Member& member;
  const json::Node& parent;  // the object holding the member
  std::string parentPath;    // dotted path of `parent` ("" for the root)
  std::string path;          // dotted path of the member
};
// Calls `fn` for every member of every object reachable through objects (array
// elements are not entered), parents before children. Returning false from `fn`
// skips the member's children.
void forEachMember(const json::Node& root, const std::function<bool(const Visit&)>& fn);

// ---- how DeepSpeed reads a section ----
enum class Regime {
  Strict,   // unknown keys and bad values are a ValidationError
  Lenient,  // unknown keys are ignored, values are used as written
  Depends,  // strict only from a release later than some in use, and the target version is unknown
};
Regime regimeOf(std::string_view sectionPath, const std::optional<catalog::Version>& version);
// "since 0.17.1" style note for a Depends section; "" otherwise.
std::string_view strictSinceOf(std::string_view sectionPath);
// Human name of a section: "the top level", "zero_optimization", ...
std::string sectionLabel(std::string_view sectionPath);

// "DeepSpeed 0.14.2" or "DeepSpeed (version unknown)".
std::string targetLabel(const RuleContext& ctx);
bool versionAtLeast(const RuleContext& ctx, std::string_view release);  // false when unknown
bool versionBelow(const RuleContext& ctx, std::string_view release);    // false when unknown

// ---- document facts ----
// zero_optimization.stage when known (explicit integer, legacy boolean, or absent section = 0).
std::optional<int> knownStage(const RuleContext& ctx);
// The bf16 section DeepSpeed reads: "bf16" when present, else "bfloat16".
// autotuning.enabled is true: list values are search spaces and "auto" batch sizes are tuned.
bool autotuningEnabled(const json::Node& root);

// ---- edits ----
// Removes `member` from `object` with the comma that separates it, keeping the
// rest of the text intact (a member alone on its lines takes those lines with it).
analysis::TextEdit removeMember(std::string_view text, const json::Node& object, const json::Member& member);
// Moves `member` out of `from` into `to` (as its last member, in the style of `to`).
std::vector<analysis::TextEdit> moveMember(std::string_view text, const json::Node& from, const json::Member& member,
                                           const json::Node& to);
// Replaces a whole member (key and value) with new member text `"key": value`.
analysis::TextEdit replaceMember(const json::Member& member, std::string newMemberText);

using config::normalizedDtype;  // config_model.h

// ASCII lower case, for DeepSpeed's case-insensitive enum values.
std::string lower(std::string_view s);
// Levenshtein distance, for did-you-mean on values.
std::size_t editDistance(const std::string& a, const std::string& b);

}  // namespace dsls::config::rules
