#!/usr/bin/env bash
# HTTP load on loopback: /health against the contacts API, in one run so the ratio is what counts
# (wrk and the server share the machine's cores). Usage: bash Benchmarks/http-load.sh [seconds]
# Builds a release binary unless LOCIFY_BIN names one. Sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10}"
source Benchmarks/common.sh
ensure_wrk
release_binary
start_bench_server
"$bin" seed --demo --email bench@example.com --data-dir "$data" >/dev/null
run() {
  printf '%-34s' "$1"
  wrk -t2 -c32 -d"${duration}s" -H "Authorization: Bearer $token" "http://127.0.0.1:$port$2" | awk '/Requests\/sec/ {print $2 " req/s"}'
}
run "GET /health" /health
run "GET /api/contacts (15 of 12)" /api/contacts
run "GET /api/contacts?query=ami" "/api/contacts?query=ami"
run "GET /api/contacts/1" /api/contacts/1
