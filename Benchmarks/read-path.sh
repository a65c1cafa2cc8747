#!/usr/bin/env bash
# The read path under load, on loopback: /health and the contacts API in one run, each as requests per
# second, as a share of /health (wrk and the server share the machine's cores, so the ratio is what
# counts) and with p50/p99 latency. The routes take turns for several rounds and each ratio is taken
# within its round, so a machine whose speed drifts (shared cores) skews no route more than another;
# the medians over the rounds are printed.
# Usage: bash Benchmarks/read-path.sh [seconds per route and round] [connections] [rounds]
# Builds a release binary unless LOCIFY_BIN names one; seeds 200 contacts; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-5}"
connections="${2:-64}"
rounds="${3:-3}"
source Benchmarks/common.sh
ensure_wrk
release_binary
start_bench_server

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

# The list as a first read after a change builds it: each request's address is new (an ignored
# parameter), so no answer kept by the account's revision (`RevisionAnswers`) serves it.
fresh_script=$(mktemp)
cat >"$fresh_script" <<'LUA'
local n = 0
setup = function(thread) thread:set("id", math.random(1000000)) end
request = function()
  n = n + 1
  return wrk.format("GET", "/api/contacts?limit=15&fresh=" .. tostring(id) .. "-" .. n)
end
LUA

results=$(mktemp)
for round in $(seq "$rounds"); do
  bearer="Authorization: Bearer $token"
  wrk_round "$round" "GET /health" /health "$bearer"
  wrk_round "$round" "GET /api/me (token check only)" /api/me "$bearer"
  wrk_round "$round" "GET /api/contacts/{id}" /api/contacts/100 "$bearer"
  wrk_round "$round" "GET /api/contacts?limit=15" "/api/contacts?limit=15" "$bearer"
  wrk_round "$round" "GET /api/contacts?limit=100" "/api/contacts?limit=100" "$bearer"
  wrk_round "$round" "GET /api/contacts?limit=15, built afresh" "/api/contacts?limit=15" "$bearer" "$fresh_script"
done

python3 Benchmarks/wrk_results.py "$results" \
  "$connections connections, SQLite, 200 contacts, release build, $rounds rounds of $duration s per route (medians; ratio range over the rounds)"
