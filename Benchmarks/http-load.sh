#!/usr/bin/env bash
# HTTP load on loopback: /health against the contacts API, in one run so the ratio is what counts
# (wrk and the server share the machine's cores). Usage: bash Benchmarks/http-load.sh [seconds]
# Builds a release binary unless LOCIFY_BIN names one. Sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10}"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
bin="${LOCIFY_BIN:-}"
if [ -z "$bin" ]; then
  swift build -c release --product locify --scratch-path .build-release >/dev/null
  bin=.build-release/release/locify
fi
data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
LOCIFY_LOG_LEVEL=warning "$bin" serve --port "$port" --data-dir "$data" >"$data/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
"$bin" user create --email bench@example.com --name Bench --password benchmark --data-dir "$data" >/dev/null
"$bin" seed --demo --email bench@example.com --data-dir "$data" >/dev/null
token=$("$bin" token create --email bench@example.com --name bench --data-dir "$data" | tail -n 1)
run() {
  printf '%-34s' "$1"
  wrk -t2 -c32 -d"${duration}s" -H "Authorization: Bearer $token" "http://127.0.0.1:$port$2" | awk '/Requests\/sec/ {print $2 " req/s"}'
}
run "GET /health" /health
run "GET /api/contacts (15 of 12)" /api/contacts
run "GET /api/contacts?query=ami" "/api/contacts?query=ami"
run "GET /api/contacts/1" /api/contacts/1
