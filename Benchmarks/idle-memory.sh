#!/usr/bin/env bash
# Idle memory: the server's resident memory once it has started on a fresh data directory and the
# gazetteer has loaded (the offline geocoder, about 170,000 places), with no request in flight. Target:
# under 80 MB (MAX_IDLE_MB changes it); the run fails above it. Usage: bash Benchmarks/idle-memory.sh
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh
release_binary
data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
LOCIFY_LOG_LEVEL=info "$bin" serve --port "$port" --data-dir "$data" >"$data/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 200); do grep -q "Gazetteer ready" "$data/server.log" 2>/dev/null && break; sleep 0.05; done
grep -q "Gazetteer ready" "$data/server.log" || { echo "the gazetteer did not load within 10 s" >&2; exit 1; }
curl -fs "http://127.0.0.1:$port/health" >/dev/null
sleep 1
rss=$(awk '/^VmRSS:/ { print int($2 / 1024) }' "/proc/$server/status")
echo "$(grep -o 'Gazetteer ready.*' "$data/server.log")"
echo "idle resident memory with the gazetteer loaded: $rss MB (target under ${MAX_IDLE_MB:-80} MB)"
[ "$rss" -lt "${MAX_IDLE_MB:-80}" ] || { echo "over the target" >&2; exit 1; }
