// The DeepSpeed config catalog: every known ds_config key and section, with its
// type, allowed values, defaults (and how they changed across releases), who
// fills "auto", deprecations, the releases that added or removed it, and a
// short description. Rules, hovers, completion and the schema export all read
// this one table; nothing else in the project hard-codes DeepSpeed key names. Value
// bounds are not here: they change across releases and are the rows of
// analysis/config/constraints.inc.
//
// Paths are dotted: "zero_optimization.offload_optimizer.device". A "*" segment
// stands for any name chosen by the user (curriculum metric names); lookups
// match it against any single segment. A key typed Object with no SectionInfo
// of its own (compression_training.weight_quantization, quantize_training) is
// not described further: its contents are not judged.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "analysis/catalog/version.h"

namespace dsls::catalog {

// JSON value kinds a key accepts (bitmask). Number means any number, so a key
// typed Number also accepts integers; Integer alone means a whole number.
enum ValueType : unsigned {
  Null = 1,
  Bool = 2,
  Integer = 4,
  Number = 8,
  String = 16,
  Object = 32,
  Array = 64,
};

// Who replaces the string "auto" with a real value before DeepSpeed sees it.
//   HfTrainer        transformers' HfTrainerDeepSpeedConfig only
//   Accelerate       accelerate's DeepSpeedPlugin / Accelerator.prepare only
//   HfAndAccelerate  both
//   DeepSpeedNative  "auto" is a genuine DeepSpeed value for this key
//   None             nobody: strict sections drop it (key takes its default),
//                    lenient sections pass the string on and it fails later
enum class AutoFill { None, HfTrainer, Accelerate, HfAndAccelerate, DeepSpeedNative };

// From release `since` on, the default is `value` (JSON text). The first entry
// may have an empty `since`, meaning "from the first release that had the key".
struct DefaultChange {
  std::string_view since;
  std::string_view value;
};

struct KeyInfo {
  std::string_view path;          // canonical dotted path, as DeepSpeed documents it
  unsigned types = 0;             // ValueType bitmask
  std::vector<std::string_view> allowed;  // enum values as JSON text; empty = any value of `types`
  std::string_view defaultValue;  // JSON text of the current default; "" = none or derived
  std::string_view defaultNote;   // how a derived or conditional default is resolved
  std::vector<DefaultChange> defaultChanges;  // ascending by `since`
  AutoFill autoFill = AutoFill::None;
  std::string_view deprecatedBy;     // replacement path; "" when not deprecated
  std::string_view deprecatedSince;  // release that deprecated it; "" = unknown or not deprecated
  std::string_view since, until;     // first release with the key / first release without it ("" = always / still there)
  std::vector<std::string_view> aliases;  // other accepted names in the same section (stage3_x <-> x)
  std::vector<int> stages;        // ZeRO stages where it has an effect; empty = all
  std::string_view doc;           // one to three plain sentences
  std::string_view docsUrl;       // filled from the section when a table entry leaves it empty

  // Additions beyond the shared core.
  bool caseInsensitive = false;   // DeepSpeed compares `allowed` values ignoring case
  bool openEnum = false;          // `allowed` lists known values; other values may also be accepted
  std::string_view removedAfter;  // last release with the key; removed on DeepSpeed master after it,
                                  // first release without it not known (so `until` stays "")
  std::string_view versionNote;   // uncertainty about since/until, in plain words; "" when exact
  std::vector<int> deprecatedStages;  // ZeRO stages where the deprecation applies; empty = all
};

struct SectionInfo {
  std::string_view path;         // "" is the top level
  bool strict = false;           // unknown keys rejected (pydantic extra="forbid")
  std::string_view strictSince;  // first strict release; "" = strict whenever the section exists
  bool openKeys = false;         // any key accepted and passed through (optimizer.params, pipeline, amp)
  std::string_view doc;
  std::string_view docsUrl;
  std::string_view aliasOf;      // another spelling of this section ("bfloat16" -> "bf16")
};

// Lookups. Paths may use aliases ("zero_optimization.prefetch_bucket_size",
// "bfloat16.enabled"); the returned entry carries the canonical path.
const KeyInfo* findKey(std::string_view dottedPath);
const SectionInfo* findSection(std::string_view dottedPath);  // "" = top level; aliases resolved to themselves
std::vector<const KeyInfo*> childrenOf(std::string_view sectionPath);  // direct children, table order
std::span<const KeyInfo> allKeys();
std::span<const SectionInfo> allSections();

// Did-you-mean for an unknown key inside `sectionPath`, best first (at most 5).
// Matching ignores case and underscores, tolerates small edit distances and
// reordered words ("comm_overlap" -> "overlap_comm").
std::vector<std::string_view> suggest(std::string_view sectionPath, std::string_view unknownKey);

// Keys in any section whose name (or alias) is exactly `name`, for keys put at
// the wrong level ("round_robin_gradients" at the top, "aio" inside zero_optimization).
std::vector<const KeyInfo*> keysNamed(std::string_view name);

// Version queries.
std::string_view defaultAt(const KeyInfo& key, const Version& v);  // default JSON text in release v
bool availableIn(const KeyInfo& key, const Version& v);            // since <= v < until
bool strictIn(const SectionInfo& section, const Version& v);       // unknown keys rejected in release v

// Path utilities: "a.b.c" -> "a.b" and "c"; "a" -> "" and "a".
std::string_view parentPath(std::string_view dottedPath);
std::string_view leafName(std::string_view dottedPath);

}  // namespace dsls::catalog
