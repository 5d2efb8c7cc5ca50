#!/usr/bin/env bash
# README line 2: installs what the tests need (Debian packages when run as root, Node 24 and
# code-server from the npm registry into .tools/), builds the .vsix, then runs every suite in
# one node:test run: unit, real agents against scripted model servers, real VS Code, and the
# stress rows with their quick counts (npm run stress -- --quick).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -d node_modules ]]; then npm ci; fi

# code-server (its native modules build for about two minutes on a fresh clone) installs in the
# background while the lint, the package and the unit files run: none of them needs it. The
# e2e folders wait for it behind runSuites' gate, which prints its log and stops the run if it failed.
mkdir -p test-results
install_status=test-results/install-code-server.status install_log=test-results/install-code-server.log
rm -f "$install_status"
(
  code=0
  bash scripts/install-code-server.sh --with-browser >"$install_log" 2>&1 || code=$?
  echo "$code" >"$install_status"
) &
# Whatever stops this script early, the install finishes rather than being left half done.
trap wait EXIT

# The real agents the tests drive are a package of their own, so that `npm start` installs none.
if [[ ! -d test/agents/node_modules ]]; then npm ci --prefix test/agents; fi
npm run --silent lint
npm run --silent package >/dev/null
echo "built dist/tandem.vsix ($(du -k dist/tandem.vsix | cut -f1) KiB)"

# The unit files two at a time (each is one CPU-bound process with nothing shared on disk); the
# real-agent, real-editor and stress files one at a time on every machine: they each run real agents
# or a code-server, and their timing must not depend on how many cores the runner has. runSuites.ts
# closes with a plain `N passed, M failed` line in which cancelled tests count as failed.
node --import tsx scripts/runSuites.ts test-results test/unit=2 \
  "--gate=bash scripts/await-step.sh install-code-server $install_status $install_log" \
  test/real-agents test/e2e test/stress
