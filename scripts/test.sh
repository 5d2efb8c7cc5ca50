#!/usr/bin/env bash
# README line 2: installs what the tests need (Debian packages when run as root, Node 24 and
# code-server from the npm registry into .tools/), builds the .vsix, then runs every suite in
# one node:test run: unit, real agents against scripted model servers, real VS Code, and the
# stress rows with their quick counts (npm run stress -- --quick).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -d node_modules ]]; then npm ci; fi
# The real agents the tests drive are a package of their own, so that `npm start` installs none.
if [[ ! -d test/agents/node_modules ]]; then npm ci --prefix test/agents; fi
bash scripts/install-code-server.sh --with-browser
npm run --silent lint
npm run --silent package >/dev/null
echo "built dist/tandem.vsix ($(du -k dist/tandem.vsix | cut -f1) KiB)"

# The unit files two at a time (each is one CPU-bound process with nothing shared on disk); the
# real-agent, real-editor and stress files one at a time on every machine: they each run real agents
# or a code-server, and their timing must not depend on how many cores the runner has. runSuites.ts
# closes with a plain `N passed, M failed` line in which cancelled tests count as failed.
node --import tsx scripts/runSuites.ts test-results test/unit=2 test/real-agents test/e2e test/stress
