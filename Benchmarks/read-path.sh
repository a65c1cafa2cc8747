#!/usr/bin/env bash
# The read path under load, on loopback: /health and the contacts API in one run, each as requests per
# second, as a share of /health (wrk and the server share the machine's cores, so the ratio is what
# counts) and with p50/p99 latency. Usage: bash Benchmarks/read-path.sh [seconds] [connections]
# Builds a release binary unless LOCIFY_BIN names one; seeds 200 contacts; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10}"
connections="${2:-64}"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
bin="${LOCIFY_BIN:-}"
if [ -z "$bin" ]; then
  swift build -c release --product locify --scratch-path .build-release >/dev/null
  bin=.build-release/release/locify
fi
data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" user create --email bench@example.com --name Bench --password benchmark --data-dir "$data" >/dev/null
token=$("$bin" token create --email bench@example.com --name bench --data-dir "$data" | tail -n 1)
LOCIFY_LOG_LEVEL=warning "$bin" serve --port "$port" --data-dir "$data" >"$data/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done

# 200 contacts with every field filled in, as a lived-in account has them.
python3 - "$port" "$token" <<'PY'
import json, sys, urllib.request
port, token = sys.argv[1], sys.argv[2]
for n in range(200):
    body = {"first_name": f"Person {n:03d}", "last_name": "Ó'Brien-Łukasiewicz", "nickname": f"P{n}",
            "description": "Met at the \"Lyon\" climbing gym.\nLoves bouldering.", "email": f"p{n}@example.com",
            "birthdate_day": 1 + n % 28, "birthdate_month": 1 + n % 12, "birthdate_year": 1950 + n % 60,
            "gender_id": 1 + n % 3, "is_starred": n % 7 == 0}
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/contacts", data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
PY

results=$(mktemp)
run() {
  local label=$1 path=$2
  wrk -t2 -c"$connections" -d"${duration}s" --latency -H "Authorization: Bearer $token" \
    "http://127.0.0.1:$port$path" >"$results.$3"
  printf '%s\t%s\n' "$label" "$results.$3" >>"$results"
}
run "GET /health" /health 0
run "GET /api/me (token check only)" /api/me 1
run "GET /api/contacts/{id}" /api/contacts/100 2
run "GET /api/contacts?limit=15" "/api/contacts?limit=15" 3
run "GET /api/contacts?limit=100" "/api/contacts?limit=100" 4

python3 - "$results" "$connections" <<'PY'
import re, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
def parse(path):
    text = open(path).read()
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    def percentile(p):
        value, unit = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return rate, percentile(50), percentile(99), int(errors.group(1)) if errors else 0
parsed = [(label, *parse(path)) for label, path in rows]
health = parsed[0][1]
print(f"{sys.argv[2]} connections, SQLite, 200 contacts, release build")
print(f"{'request':<32} {'req/s':>9} {'of /health':>10} {'p50 ms':>8} {'p99 ms':>8}")
for label, rate, p50, p99, errors in parsed:
    note = f"  ({errors} errors)" if errors else ""
    print(f"{label:<32} {rate:>9.0f} {rate / health:>9.0%} {p50:>8.2f} {p99:>8.2f}{note}")
PY
