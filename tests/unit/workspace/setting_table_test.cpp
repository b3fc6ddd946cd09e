// The settings table: every id has one row, every name is unique in its place, and the checks
// give the same words for a value wherever it is written.
#include "analysis/core/setting_table.h"
#include "workspace/setting_values.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

using dsls::analysis::SettingId;
using dsls::analysis::settingRow;
using dsls::analysis::settingTable;

TEST_CASE("one row per setting, each name unique in its place") {
  std::set<std::string_view> editor, project, flags;
  std::set<int> ids;
  for (const auto& row : settingTable()) {
    CHECK(ids.insert(static_cast<int>(row.id)).second);
    CHECK(&settingRow(row.id) == &row);
    if (row.places & dsls::analysis::kEditor) CHECK(editor.insert(row.editorKey).second);
    if (row.places & dsls::analysis::kProject) CHECK(project.insert(row.projectKey).second);
    if (row.places & dsls::analysis::kCommandLine) {
      CHECK(row.flag.starts_with("--"));
      CHECK(flags.insert(row.flag).second);
    }
    CHECK_FALSE(row.doc.empty());
    // A setting missing from a place says why.
    CHECK((row.places == dsls::analysis::kEverywhere) == row.notEverywhere.empty());
  }
  CHECK(ids.size() == static_cast<std::size_t>(SettingId::OutputSeverity) + 1);
}

TEST_CASE("a value's check is the same in every place") {
  const auto& launcher = settingRow(SettingId::Launcher);
  dsls::workspace::SettingValues values;
  auto problems = dsls::workspace::setSetting(launcher, std::string("torchrun"), "", values);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].changesWhatIsChecked);
  CHECK(dsls::workspace::problemText("launcher", problems[0]) ==
        "launcher: 'torchrun' is not a launcher; it must be hf, accelerate or deepspeed");
  CHECK(values.settings.launcher == dsls::analysis::Launcher::Unknown);
  CHECK(dsls::workspace::setSetting(launcher, std::string("accelerate"), "", values).empty());
  CHECK(values.settings.launcher == dsls::analysis::Launcher::Accelerate);

  const auto& compile = settingRow(SettingId::TorchCompile);
  CHECK(dsls::workspace::problemText("torch-compile", dsls::workspace::setSetting(compile, std::string("yes"), "", values)[0]) ==
        "torch-compile must be true or false");
  CHECK(dsls::workspace::setSetting(compile, true, "", values).empty());
  CHECK(values.settings.torchCompile == true);
}

TEST_CASE("messages name a setting as the place where they are read") {
  CHECK(dsls::analysis::settingName(SettingId::TorchCompile, false) == "dsls.torchCompile");
  CHECK(dsls::analysis::settingName(SettingId::TorchCompile, true) == "--torch-compile or torch-compile in [tool.dsls]");
}
