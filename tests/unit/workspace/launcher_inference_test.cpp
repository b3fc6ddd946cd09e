// Who reads a config, from how the project's own files hand it over.
#include "workspace/launcher_inference.h"
#include "workspace/project_settings.h"

#include "tests/unit/workspace/temp_tree.h"

#include <doctest/doctest.h>

using dsls::analysis::Launcher;
using dsls::test::TempTree;
using dsls::workspace::inferLauncher;
using dsls::workspace::launcherOfLine;

TEST_CASE("each reader's own flag or key names it") {
  CHECK(launcherOfLine("deepspeed train.py --deepspeed --deepspeed_config ds.json", "ds.json", "shell") ==
        Launcher::DeepSpeed);
  CHECK(launcherOfLine("torchrun --nproc_per_node 8 train.py --deepspeed configs/ds.json --bf16", "configs/ds.json",
                       "shell") == Launcher::HfTrainer);
  CHECK(launcherOfLine("python sft.py --deepspeed=\"ds.json\"", "ds.json", "shell") == Launcher::HfTrainer);
  CHECK(launcherOfLine("accelerate launch --use_deepspeed --deepspeed_config_file ds.json t.py", "ds.json", "shell") ==
        Launcher::Accelerate);
  CHECK(launcherOfLine("  deepspeed_config_file: configs/ds.json", "configs/ds.json", "yaml") == Launcher::Accelerate);
  CHECK(launcherOfLine("deepspeed: examples/ds_z3.json", "examples/ds_z3.json", "yaml") == Launcher::HfTrainer);
  CHECK(launcherOfLine("args = TrainingArguments(output_dir='o', deepspeed=\"ds.json\")", "ds.json", "python") ==
        Launcher::HfTrainer);
  CHECK(launcherOfLine("engine, *_ = deepspeed.initialize(model=m, config=\"ds.json\")", "ds.json", "python") ==
        Launcher::DeepSpeed);
  CHECK(launcherOfLine("parser.add_argument('--deepspeed_config', default='ds.json')", "ds.json", "python") ==
        Launcher::DeepSpeed);
  // Names that say nothing of the reader.
  CHECK_FALSE(launcherOfLine("python train.py --ds_config ds.json", "ds.json", "shell"));
  CHECK_FALSE(launcherOfLine("cp ds.json out/", "ds.json", "shell"));
  CHECK_FALSE(launcherOfLine("config: ds.json", "ds.json", "yaml"));
}

TEST_CASE("--bf16 on the command line says what HF Trainer fills bf16 \"auto\" with") {
  using dsls::workspace::bf16Flag;
  CHECK(bf16Flag("torchrun t.py --deepspeed ds.json --bf16 True --tf32 True") == true);
  CHECK(bf16Flag("python t.py --bf16=false") == false);
  CHECK(bf16Flag("deepspeed t.py --bf16 \\\n --deepspeed ds.json") == true);
  CHECK(bf16Flag("deepspeed t.py --bf16") == true);
  CHECK_FALSE(bf16Flag("deepspeed t.py --bf16_full_eval True --fp16"));
}

TEST_CASE("a project's scripts give the launcher of each config, with where it was seen") {
  TempTree t("dsls-launcher");
  for (const char* config : {"zero2", "hf", "mixed", "unused", "local"}) t.write("configs/" + std::string(config) + ".json", "{}");
  t.writeAll({{".git/HEAD", "ref: refs/heads/main\n"},
              {"scripts/train.sh", "#!/bin/bash\nDS_CONFIG=../configs/zero2.json\n"
                                   "deepspeed --num_gpus 8 pretrain.py \\\n  --deepspeed \\\n"
                                   "  --deepspeed_config \"$DS_CONFIG\"\n"},
              {"scripts/sft.sh", "torchrun train.py --deepspeed configs/hf.json --bf16 True\n"},
              {"recipes/a.yaml", "deepspeed: configs/mixed.json\n"},
              {"recipes/b.sh", "deepspeed x.py --deepspeed_config configs/mixed.json\n"},
              {"scripts/local.json", "{}"},
              {"scripts/local.sh", "deepspeed t.py --deepspeed_config local.json\n"}});
  t.write("node_modules/x.sh", "deepspeed x.py --deepspeed_config configs/hf.json\n");  // not the project's
  const std::string root = t.root.string();

  auto zero2 = inferLauncher((t.root / "configs/zero2.json").string(), root);
  REQUIRE(zero2);
  CHECK(zero2->launcher == Launcher::DeepSpeed);
  CHECK(zero2->evidence == "scripts/train.sh:5 passes it with --deepspeed_config (as $DS_CONFIG)");
  auto hf = inferLauncher((t.root / "configs/hf.json").string(), root);
  REQUIRE(hf);
  CHECK(hf->launcher == Launcher::HfTrainer);
  CHECK(hf->evidence == "scripts/sft.sh:1 passes it with --deepspeed");
  CHECK(hf->bf16 == true);
  CHECK_FALSE(zero2->bf16);  // plain DeepSpeed fills nothing
  CHECK_FALSE(inferLauncher((t.root / "configs/mixed.json").string(), root));  // the project disagrees
  CHECK_FALSE(inferLauncher((t.root / "configs/unused.json").string(), root));

  // A bare file name is the config beside the script (or at the root), not one elsewhere.
  auto beside = inferLauncher((t.root / "scripts/local.json").string(), root);
  CHECK((beside && beside->launcher == Launcher::DeepSpeed));
  CHECK_FALSE(inferLauncher((t.root / "configs/local.json").string(), root));

  // resolveSettings takes it when no setting names the launcher, and a setting wins.
  auto resolved = dsls::workspace::resolveSettings((t.root / "configs/zero2.json").string(), {});
  CHECK(resolved.settings.launcher == Launcher::DeepSpeed);
  CHECK(resolved.settings.launcherSource == zero2->evidence);
  dsls::workspace::SettingValues given;
  given.settings.launcher = Launcher::Accelerate;
  CHECK(dsls::workspace::resolveSettings((t.root / "configs/zero2.json").string(), given).settings.launcher ==
        Launcher::Accelerate);
}

TEST_CASE("per-file-launcher in [tool.dsls] wins over the launcher and the scripts") {
  TempTree t("dsls-launcher");
  t.writeAll({{".git/HEAD", "ref: refs/heads/main\n"},
              {"pyproject.toml", "[tool.dsls]\nlauncher = \"deepspeed\"\nper-file-launcher = { \"configs/hf/*.json\" = "
                                 "\"hf\", \"ds_z3*.json\" = \"accelerate\" }\n"},
              {"configs/hf/a.json", "{}"}, {"configs/ds_z3_offload.json", "{}"}, {"configs/plain.json", "{}"}});
  auto launcherOf = [&](const char* rel) {
    return dsls::workspace::resolveSettings((t.root / rel).string(), {}).settings;
  };
  CHECK(launcherOf("configs/hf/a.json").launcher == Launcher::HfTrainer);
  CHECK(launcherOf("configs/hf/a.json").launcherSource == "per-file-launcher in " + (t.root / "pyproject.toml").string());
  CHECK(launcherOf("configs/ds_z3_offload.json").launcher == Launcher::Accelerate);
  CHECK(launcherOf("configs/plain.json").launcher == Launcher::DeepSpeed);
  auto bad = dsls::workspace::parseProjectSettings("[tool.dsls]\nper-file-launcher = { \"a/*.json\" = \"slurm\" }\n",
                                                   "p.toml");
  REQUIRE(bad);
  CHECK(bad->errors == std::vector<std::string>{"p.toml: [tool.dsls] per-file-launcher.a/*.json: 'slurm' is not a "
                                                "launcher; it must be hf, accelerate or deepspeed"});
}
