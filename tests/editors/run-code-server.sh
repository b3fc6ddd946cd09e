#!/usr/bin/env bash
# CTest entry: the packaged extension in real VS Code (code-server 4.100.3),
# driven through Debian's Chromium with playwright-core.
# Usage: run-code-server.sh <dsls> <work-dir>
# Needs <work-dir>/dsls.vsix from run-vscode-extension.sh (the dsls binary is
# bundled in it). Screenshots, the browser console and the VS Code logs go to
# <work-dir>/code-server/artifacts/.
set -euo pipefail
dsls=$1; work=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib/code-server-requirements.sh"
[[ -x $dsls ]] || { echo "dsls binary not found at $dsls" >&2; exit 1; }
vsix="$work/dsls.vsix"
[[ -f $vsix ]] || { echo "$vsix is missing: the editors.vscode-extension test makes it" >&2; exit 1; }

# code-server itself is installed by install-code-server.sh (the editors_code_server fixture).
scratch="$work/code-server"
code_server="$here/code-server/node_modules/.bin/code-server"

# A fresh profile per run, all state kept under the scratch folder.
run="$scratch/run"
rm -rf "$run" && mkdir -p "$run"/{user/User,extensions,home,workspace,xdg/config,xdg/data,xdg/cache}
export HOME="$run/home" XDG_CONFIG_HOME="$run/xdg/config" XDG_DATA_HOME="$run/xdg/data" XDG_CACHE_HOME="$run/xdg/cache"
cp "$here/fixtures/ds_config_zero2_race.json" "$run/workspace/ds_config.json"
cp "$here/fixtures/oom_then_timeouts.log" "$run/workspace/train.log"
# A fixed prompt the test waits for before typing into the terminal.
prompt='dsls-e2e$'
printf "PS1='%s '\n" "$prompt" > "$run/home/.bashrc"
# Mouse hovers are off: the test opens the hover with the keyboard, so where the
# mouse rests plays no part. Git is off: whether the build folder lies in a
# repository differs between machines and would add a notification.
cat > "$run/user/User/settings.json" <<'JSON'
{
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "update.mode": "none",
  "git.enabled": false,
  "editor.hover.enabled": false,
  "terminal.integrated.gpuAcceleration": "off",
  "terminal.integrated.defaultProfile.linux": "bash",
  "terminal.integrated.shellIntegration.enabled": false,
  "dsls.trace.server": "messages"
}
JSON
common=(--user-data-dir "$run/user" --extensions-dir "$run/extensions")
"$code_server" "${common[@]}" --install-extension "$vsix" --force

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$code_server" "${common[@]}" --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry \
  --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  "$run/workspace" >"$run/code-server.log" 2>&1 &
server_pid=$!
cleanup() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  node -e 'fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$port/healthz" && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$run/code-server.log"; exit 1; }
  sleep 0.2
done

artifacts="$scratch/artifacts"
rm -rf "$artifacts" && mkdir -p "$artifacts"
status=0
CODE_SERVER_URL="http://127.0.0.1:$port/?folder=$run/workspace" CHROMIUM="$chromium" ARTIFACTS="$artifacts" \
  TERMINAL_PROMPT="$prompt" timeout 300 node "$here/code-server/e2e.cjs" || status=$?
cp "$run/code-server.log" "$artifacts/" 2>/dev/null || true
[[ -d $run/user/logs ]] && cp -r "$run/user/logs" "$artifacts/vscode-logs"
if ((status != 0)); then
  ((status == 124)) && echo "FAILED: the e2e run did not finish within 300 s"
  echo "---- code-server log"; tail -40 "$run/code-server.log"
  echo "---- extension host and dsls output"
  find "$run/user/logs" -type f \( -name 'exthost*.log' -o -name '*dsls*' -o -name '*DeepSpeed*' \) -print0 2>/dev/null |
    xargs -0 -r tail -n 60
  echo "---- artifacts (screenshots, browser console, VS Code logs): $artifacts"
fi
exit $status
