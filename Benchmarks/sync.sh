#!/usr/bin/env bash
# The sync feed at scale, on loopback: one account with 10,000 contacts (each with an address) and
# 10,000 places. Measures, through HTTP:
# - a full first download, paged at 500 (GET /api/sync?limit=500 until has_more is false): the total time;
# - a pull of 100 changes (100 contacts edited, then GET /api/sync?cursor=…&limit=100 asked again and
#   again): p50 and p99.
# A pull's and a push's time runs from sending the request to the answer's last byte; the time this
# Python client then spends parsing the JSON (a few ms for a pull's 250 kB) is its own, not the
# server's. The download's total counts it, and says how much of it it was.
# - a push of 100 mutations (POST /api/sync: 25 contacts edited, 25 made, an address for each, 25 places
#   marked favorite or not), 40 pushes: p50 and p99.
# Targets (issue 22): full download under 3 s in total, pull of 100 p50 under 20 ms, push of 100 under
# 150 ms, on both databases.
# Usage: bash Benchmarks/sync.sh [contacts and places] [sqlite|postgres|both]
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1. PostgreSQL runs
# in a throwaway cluster (as the postgres user when run as root). Geocoding and workers are off, so
# nothing changes the account while it is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-10000}"
databases="${2:-both}"
source Benchmarks/common.sh
release_binary

make_bench_workspace
export LOCIFY_GEOCODER=off LOCIFY_GRAVATAR_URL=off LOCIFY_LOG_LEVEL=warning

# The contacts (a vCard file, each with a postal address) and the places (a CSV file).
write_bench_files "$count" "$work" 1

run() {
  local label=$1
  local data="$work/data-$label"
  make_bench_account "$data"
  local started=$SECONDS
  "$bin" import contacts "$work/contacts.vcf" --email bench@example.com --data-dir "$data" | head -n 1
  "$bin" import places "$work/places.csv" --email bench@example.com --data-dir "$data" | head -n 1
  echo "($label: imported in $((SECONDS - started)) s)"
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  LOCIFY_WORKERS=0 "$bin" serve --port "$port" --data-dir "$data" >"$data.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
  python3 - "$port" "$token" "$label" <<'PY'
import http.client, json, statistics, sys, time
port, token, label = int(sys.argv[1]), sys.argv[2], sys.argv[3]
auth = {"Authorization": f"Bearer {token}"}
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

parsing = 0.0  # seconds this client spent reading JSON, for the download's share of it
waited = 0.0  # seconds of the last call from sending the request to the answer's last byte

def call(method, path, body=None):
    global parsing, waited
    headers = dict(auth)
    if body is not None:
        headers["Content-Type"] = "application/json"
    began = time.perf_counter()
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    payload = response.read()
    waited = time.perf_counter() - began
    if response.status != 200:
        sys.exit(f"{method} {path} answered {response.status}: {payload[:200]}")
    began = time.perf_counter()
    answer = json.loads(payload)
    parsing += time.perf_counter() - began
    return answer

def download(limit):
    global parsing
    cursor, records, pages, parsing = "", 0, 0, 0.0
    began = time.perf_counter()
    while True:
        page = call("GET", f"/api/sync?limit={limit}" + (f"&cursor={cursor}" if cursor else ""))
        records += len(page["changes"]) + len(page["deletions"])
        pages += 1
        cursor = page["cursor"]
        if not page["has_more"]:
            return time.perf_counter() - began, records, pages, cursor

download(500)  # once to warm the caches, as a second device would find them
seconds, records, pages, cursor = download(500)
print(f"{label}: full download paged at 500: {seconds:.2f} s for {records} records in {pages} pages "
      f"(of which this Python client parsing JSON: {parsing:.2f} s)")

contacts = [change["id"] for change in call("GET", "/api/sync?limit=1000&types=contact")["changes"]][:100]
for id in contacts:
    call("PUT", f"/api/contacts/{id}", json.dumps({"nickname": f"Edited {id}"}))
latencies = []
for _ in range(60):
    page = call("GET", f"/api/sync?cursor={cursor}&limit=100")
    latencies.append(waited * 1000)
    assert len(page["changes"]) == 100, len(page["changes"])
latencies.sort()
print(f"{label}: pull of 100 changes: p50 {statistics.median(latencies):.1f} ms, "
      f"p99 {latencies[int(0.99 * (len(latencies) - 1))]:.1f} ms")

import uuid
contacts = [change["uuid"] for change in call("GET", "/api/sync?limit=1000&types=contact")["changes"]]
places = [change["uuid"] for change in call("GET", "/api/sync?limit=1000&types=place")["changes"]]
latencies, next_id = [], 1
for round_number in range(41):
    mutations = []
    def add(type, op, record, fields):
        global next_id
        mutations.append({"id": next_id, "type": type, "op": op, "uuid": record, "fields": fields})
        next_id += 1
    for n in range(25):
        add("contact", "update", contacts[(round_number * 25 + n) % len(contacts)], {"nickname": f"Pushed {round_number}"})
        made = str(uuid.uuid4())
        add("contact", "create", made, {"first_name": "Pushed", "last_name": f"{round_number}-{n}"})
        add("address", "create", str(uuid.uuid4()), {"contact_uuid": made, "street": f"{n} Rue", "city": "Lyon", "country": "FR"})
        add("place", "update", places[(round_number * 25 + n) % len(places)], {"is_favorite": round_number % 2 == 0})
    body = json.dumps({"client_id": "bench", "mutations": mutations})
    answer = call("POST", "/api/sync", body)
    elapsed = waited * 1000
    assert all(result["status"] == "applied" for result in answer["results"]), answer["results"][:3]
    if round_number:  # the first warms the statements
        latencies.append(elapsed)
latencies.sort()
print(f"{label}: push of 100 mutations: p50 {statistics.median(latencies):.1f} ms, "
      f"p99 {latencies[int(0.99 * (len(latencies) - 1))]:.1f} ms")
PY
  kill -TERM "$server"; wait "$server" 2>/dev/null || true; server=""
}

run_on_databases "$databases"
