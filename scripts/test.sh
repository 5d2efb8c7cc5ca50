#!/usr/bin/env bash
# README line 2: installs what the tests need (Debian packages when run as root, Node 24 and
# code-server from the npm registry into .tools/), builds the .vsix, then runs every suite in
# one node:test run: unit, real agents against scripted model servers, real VS Code.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -d node_modules ]]; then npm ci; fi
bash scripts/install-code-server.sh --with-browser
npm run --silent lint
npm run --silent package >/dev/null
echo "built dist/tandem.vsix ($(du -k dist/tandem.vsix | cut -f1) KiB)"

shopt -s nullglob
suites=(test/unit/*.test.ts test/real-agents/*.test.ts test/e2e/*.test.ts)
exec node --import tsx --test --test-reporter=spec --test-timeout=600000 "${suites[@]}"
