#!/usr/bin/env bash
# README line 1: builds Tandem, installs it into a real VS Code and opens a sample workspace
# with the offline demo agent selected. Desktop VS Code is used when one is installed and a
# display is available (TANDEM_USE_CODE_SERVER=1 forces the browser route); otherwise
# code-server serves VS Code on 127.0.0.1 and this prints the URL to open.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

if [[ ! -d node_modules ]]; then npm ci; fi
npm run --silent package >/dev/null
VSIX="$REPO/dist/tandem.vsix"

STATE="$REPO/.tools/start"
WORKSPACE="$STATE/sample-workspace"
mkdir -p "$STATE"
# A copy, so what agents change there never touches the repository.
if [[ ! -d "$WORKSPACE" ]]; then cp -R "$REPO/scripts/sample-workspace" "$WORKSPACE"; fi

if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" && "${TANDEM_USE_CODE_SERVER:-0}" != 1 ]] && command -v code >/dev/null 2>&1; then
  code --install-extension "$VSIX" --force
  exec code --new-window "$WORKSPACE"
fi

bash scripts/install-code-server.sh
NODE24="$(ls -d "$REPO"/.tools/node-24*/bin/node | head -n 1)"
ENTRY="$(ls -d "$REPO"/.tools/code-server-*/node_modules/code-server/out/node/entry.js | head -n 1)"
PORT="${TANDEM_PORT:-8080}"
export XDG_CONFIG_HOME="$STATE/config" XDG_DATA_HOME="$STATE/data"
mkdir -p "$STATE/user-data/User" "$STATE/extensions"
if [[ ! -f "$STATE/user-data/User/settings.json" ]]; then
  cat >"$STATE/user-data/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false
}
JSON
fi
PATH="$(dirname "$NODE24"):$PATH" "$NODE24" "$ENTRY" --extensions-dir "$STATE/extensions" --user-data-dir "$STATE/user-data" \
  --install-extension "$VSIX" --force >/dev/null

echo
echo "Tandem is running in VS Code: http://127.0.0.1:$PORT/?folder=$WORKSPACE"
echo "The Tandem panel opens with the offline demo agent selected. Press Ctrl+C to stop."
echo
exec env PATH="$(dirname "$NODE24"):$PATH" "$NODE24" "$ENTRY" --auth none --bind-addr "127.0.0.1:$PORT" \
  --user-data-dir "$STATE/user-data" --extensions-dir "$STATE/extensions" \
  --disable-telemetry --disable-update-check --disable-workspace-trust "$WORKSPACE"
