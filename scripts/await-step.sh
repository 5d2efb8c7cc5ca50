#!/usr/bin/env bash
# `bash scripts/await-step.sh NAME STATUS_FILE LOG_FILE`: waits for a step scripts/test.sh started
# in the background to write its exit code to STATUS_FILE, prints what it logged, and exits with
# its code. Gives up after 40 minutes.
set -euo pipefail
name="$1" status_file="$2" log_file="$3"
start=$SECONDS
until [[ -s "$status_file" ]]; do
  if ((SECONDS - start > 2400)); then
    echo "await-step: $name still running after 40 minutes; log: $log_file" >&2
    exit 1
  fi
  sleep 1
done
cat "$log_file"
code="$(cat "$status_file")"
echo "$name: finished (exit $code); waited $((SECONDS - start)) s for it"
exit "$code"
