#!/usr/bin/env bash
# Several instances on one PostgreSQL, as a hosted service runs Locify: two instances behind haproxy, all on
# loopback, with writers and readers going through the balancer and a webhook due for each of many
# reminders; then one instance is killed with SIGKILL in the middle and started again. Prints the
# throughput through the balancer against one instance alone, the writes acknowledged and lost, the
# requests that failed, the notifications delivered and sent again under the same idempotency key, the
# jobs the dead instance held and whether they ran again, and the backup and restore times of an account
# with 10,000 contacts and 10,000 places. Exits non-zero when a promise or a target does not hold.
# Usage: bash Benchmarks/instances.sh [--quick]
#   --quick: the CI variant (.ci/run): 200 notifications, no throughput run, a 500-record backup; it asserts
#   the promises, not the speed targets. Builds a release binary unless LOCIFY_BIN names one.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh
command -v haproxy >/dev/null || { apt-get update -qq && apt-get install -y -qq haproxy >/dev/null; }
make_bench_workspace
start_postgres_cluster
if [ "${1:-}" = --quick ]; then
  bin="${LOCIFY_BIN:-.build/debug/locify}"
  python3 Benchmarks/instances.py "$bin" --check --notifications 200 --backup-records 500
else
  ensure_wrk
  release_binary
  python3 Benchmarks/instances.py "$bin" --check --throughput --notifications 1000 --backup-records 10000
fi
