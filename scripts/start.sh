#!/usr/bin/env bash
# README line 1: builds Tandem, installs it into a real VS Code and opens a copy of the sample
# workspace with the offline demo agent selected. Desktop VS Code is used when one is installed
# and a display is available (TANDEM_USE_CODE_SERVER=1 forces the browser route); otherwise
# code-server serves VS Code on 127.0.0.1 and this prints the URL to open.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

if [[ ! -d node_modules ]]; then npm ci; fi
# The .vsix builds while code-server installs; `wait` collects it (and its failure) before use.
npm run --silent package >/dev/null &
PACKAGE_PID=$!
VSIX="$REPO/dist/tandem.vsix"

# Outside the clone: a folder inside a git repository makes VS Code offer to open the parent
# repository, and what the demo agent changes must never touch the repository.
STATE="${XDG_STATE_HOME:-$HOME/.local/state}/tandem"
WORKSPACE="$STATE/sample-workspace"
mkdir -p "$STATE"
# A fresh copy whenever the shipped sample changed (the tour expects its files as shipped).
SAMPLE_STAMP="$(cd "$REPO/scripts/sample-workspace" && find . -type f | LC_ALL=C sort | xargs cksum | cksum)"
if [[ ! -d "$WORKSPACE" || "$(cat "$STATE/sample-workspace.stamp" 2>/dev/null)" != "$SAMPLE_STAMP" ]]; then
  rm -rf "$WORKSPACE"
  cp -R "$REPO/scripts/sample-workspace" "$WORKSPACE"
  printf '%s\n' "$SAMPLE_STAMP" >"$STATE/sample-workspace.stamp"
fi

if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" && "${TANDEM_USE_CODE_SERVER:-0}" != 1 ]] && command -v code >/dev/null 2>&1; then
  wait "$PACKAGE_PID"
  code --install-extension "$VSIX" --force
  exec code --new-window "$WORKSPACE"
fi

bash scripts/install-code-server.sh
wait "$PACKAGE_PID"
NODE24="$(ls -d "$REPO"/.tools/node-24*/bin/node | head -n 1)"
ENTRY="$(ls -d "$REPO"/.tools/code-server-*/node_modules/code-server/out/node/entry.js | head -n 1)"
PORT="${TANDEM_PORT:-8080}"
export XDG_CONFIG_HOME="$STATE/config" XDG_DATA_HOME="$STATE/data"
USER_SETTINGS="$STATE/user-data/User/settings.json"
mkdir -p "$(dirname "$USER_SETTINGS")" "$STATE/extensions"
# This profile exists for `npm start`: these keys are set on every start, others are kept.
# VS Code's own chat (view, command-center control, setup prompts) stays out of the way of
# Tandem's panel, and the panel opens when the window does.
"$NODE24" - "$USER_SETTINGS" <<'NODE'
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const file = process.argv[2];
const managed = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'chat.agentsControl.enabled': 'hidden',
  'git.openRepositoryInParentFolders': 'never',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'tandem.revealOnStartup': true,
};
let settings = {};
if (existsSync(file)) {
  try {
    settings = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.error(`Left ${file} as it is (not plain JSON): add ${Object.keys(managed).join(', ')} yourself if the window is cluttered.`);
    process.exit(0);
  }
}
writeFileSync(file, `${JSON.stringify({ ...settings, ...managed }, null, 2)}\n`);
NODE
PATH="$(dirname "$NODE24"):$PATH" "$NODE24" "$ENTRY" --extensions-dir "$STATE/extensions" --user-data-dir "$STATE/user-data" \
  --install-extension "$VSIX" --force >/dev/null

echo
echo "Ready after $SECONDS s."
echo "Tandem is running in VS Code: http://127.0.0.1:$PORT/?folder=$WORKSPACE"
echo "The Tandem panel opens with the offline demo agent: send /tour to see what it does. Press Ctrl+C to stop."
echo
exec env PATH="$(dirname "$NODE24"):$PATH" "$NODE24" "$ENTRY" --auth none --bind-addr "127.0.0.1:$PORT" \
  --user-data-dir "$STATE/user-data" --extensions-dir "$STATE/extensions" \
  --disable-telemetry --disable-update-check --disable-workspace-trust --ignore-last-opened "$WORKSPACE"
