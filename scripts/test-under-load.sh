#!/usr/bin/env bash
# Runs the test suite (or the vitest arguments given) with two CPU-bound processes beside it, as
# on a busy CI runner or a shared server: no test may depend on the machine's speed. The burners
# are killed however the run ends (success, failure, Ctrl-C).
set -euo pipefail
cd "$(dirname "$0")/.."

burners=()
stop_burners() {
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop_burners EXIT INT TERM

for _ in 1 2; do
  node -e 'for (;;) {}' &
  burners+=("$!")
done

npx vitest run "$@"
