#!/usr/bin/env bash
# Installs the Debian packages dsls needs and that are missing; does nothing when all are present.
# Usage: scripts/install-deps.sh [build|test|package]
#   build:   compiler, CMake and the five libraries (the default)
#   package: also what packaging/package.sh and its tests use (Python venv, Node, lintian, pre-commit)
#   test:    also the real editor clients and tools the test suite drives, and the package tools
#   aarch64: the cross toolchain and arm64 libraries for the aarch64 artifacts, and qemu-user to
#            try them (adds the arm64 architecture to dpkg; ./build.sh package uses them if present)
set -euo pipefail

profile=${1:-build}
packages=(build-essential cmake pkg-config git libtree-sitter-dev
          nlohmann-json3-dev libboost-dev libre2-dev libfmt-dev doctest-dev libtomlplusplus-dev)
if [[ $profile == test || $profile == package ]]; then
  packages+=(python3 python3-venv nodejs npm lintian pre-commit)
fi
if [[ $profile == aarch64 ]]; then
  packages+=(g++-aarch64-linux-gnu libre2-dev:arm64 libfmt-dev:arm64 libtomlplusplus-dev:arm64
             qemu-user-static)
fi
if [[ $profile == test ]]; then
  packages+=(strace neovim emacs-nox elpa-eglot ripgrep
            elpa-lsp-mode chromium libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev
            clang libclang-rt-dev libbenchmark-dev time ccache)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A tool already on PATH (e.g. a newer node or python) counts as present.
filtered=()
for p in "${missing[@]}"; do
  case $p in
    python3|nodejs|npm|git|cmake) command -v "${p/nodejs/node}" >/dev/null 2>&1 && continue ;;
  esac
  filtered+=("$p")
done
missing=("${filtered[@]+"${filtered[@]}"}")

if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) != 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if [[ $profile == aarch64 ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $sudo dpkg --add-architecture arm64
fi
# A fresh cloud machine runs its unattended upgrades at boot: wait for their dpkg lock.
lock_wait=600
apt=(apt-get -o DPkg::Lock::Timeout=$lock_wait)
if ! command -v fuser >/dev/null 2>&1 || $sudo fuser /var/lib/dpkg/lock-frontend /var/lib/apt/lists/lock >/dev/null 2>&1; then
  echo "install-deps: another apt run holds the dpkg lock; waiting for it (up to $lock_wait s)" >&2
fi
$sudo "${apt[@]}" update -qq
$sudo "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >&2
