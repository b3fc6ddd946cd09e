#!/usr/bin/env bash
# The pre-commit mirror (dist/dsls-pre-commit) used the way a project uses it: pre-commit builds
# the hooks' virtualenv, which installs the dsls wheel (offline: pip looks only in dist/ and at
# the setuptools wheel Debian ships), and the dsls hook fails a commit with the race on it.
# Usage: run-pre-commit.sh <dist-dir> <work-dir>
set -euo pipefail
dist=$(realpath "$1"); work=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_dist "$dist"
command -v pre-commit >/dev/null || {
  echo "*** SKIPPED: pre-commit is not installed (Debian package pre-commit) ***" >&2; exit 77; }
wheels=/usr/share/python-wheels
ls "$wheels"/setuptools-*.whl >/dev/null 2>&1 || {
  echo "*** SKIPPED: no setuptools wheel in $wheels to build the placeholder offline ***" >&2; exit 77; }
rm -rf "$work" && mkdir -p "$work"
export HOME=$work/home PRE_COMMIT_HOME=$work/cache GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
export PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 PIP_FIND_LINKS="$dist $wheels" PIP_DISABLE_PIP_VERSION_CHECK=1
export VIRTUALENV_NO_DOWNLOAD=1
mkdir -p "$HOME"

# The mirror as its own repository, the way it would be published.
mirror=$work/dsls-pre-commit
cp -r "$dist/dsls-pre-commit" "$mirror"
git -C "$mirror" init -q && git -C "$mirror" add -A && git -C "$mirror" commit -qm mirror
rev=$(git -C "$mirror" rev-parse HEAD)

project=$work/project
mkdir -p "$project"
cat > "$project/ds_config.json" <<'JSON'
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": { "stage": 2, "overlap_comm": true }
}
JSON
echo "deepspeed==0.14.2" > "$project/requirements.txt"
cat > "$project/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $mirror
    rev: $rev
    hooks:
      - id: dsls
YAML
git -C "$project" init -q && git -C "$project" add -A
set +e
(cd "$project" && pre-commit run dsls --all-files) > "$work/hook.txt" 2>&1
status=$?
set -e
cat "$work/hook.txt"
check "the hook fails on the race" test "$status" = 1
check "it names the rule" grep -q 'overlap-comm-race' "$work/hook.txt"
check "the hook's dsls came from the wheel" bash -c "ls '$PRE_COMMIT_HOME'/repo*/py_env-*/bin/dsls >/dev/null"
finish
