#!/usr/bin/env bash
# README line 2: installs what the tests need (Debian packages when run as root, Node 24 and
# code-server from the npm registry into .tools/), builds the .vsix, then runs every suite in
# one node:test run: unit, real agents against scripted model servers, real VS Code, and the
# stress rows with their quick counts (npm run stress -- --quick).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -d node_modules ]]; then npm ci; fi
bash scripts/install-code-server.sh --with-browser
npm run --silent lint
npm run --silent package >/dev/null
echo "built dist/tandem.vsix ($(du -k dist/tandem.vsix | cut -f1) KiB)"

shopt -s nullglob
# One file at a time on every machine: the real-editor files each run a code-server and real agents,
# and their timing must not depend on how many cores the runner has.
suites=(test/unit/*.test.ts test/real-agents/*.test.ts test/e2e/*.test.ts test/stress/*.test.ts)
mkdir -p test-results
summary=test-results/summary.tap
status=0
node --import tsx --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$summary" \
  --test-concurrency=1 --test-timeout=600000 "${suites[@]}" || status=$?
# One plain closing line for CI, from the run's own TAP summary.
passed=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$summary" | tail -n 1)
failed=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$summary" | tail -n 1)
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
