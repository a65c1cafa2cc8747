#!/usr/bin/env bash
# LocifyKit at scale, on loopback: one account with 10,000 contacts (each with an address) and 10,000 places,
# synced into an empty store by `locify client` (built only on LocifyKit). Measures:
# - the first sync into an empty store (the process's own clock, start-up left out);
# - an incremental sync of 100 changes (100 contacts edited through the API);
# - the store's size on disk, per contact (counting everything in it: addresses and places too);
# - a contact search and "places near a point" in the store: p50 and p99 of 1,000 each (`locify client bench`).
# Targets (issue 27): first sync under 5 s, incremental sync of 100 under 100 ms, under 3 KB per contact,
# search and near p50 under 5 ms.
# Usage: bash Benchmarks/sdk.sh [contacts and places]. Builds a release binary unless LOCIFY_BIN names one.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-10000}"
source Benchmarks/common.sh
release_binary

make_bench_workspace
export LOCIFY_GEOCODER=off LOCIFY_GRAVATAR_URL=off LOCIFY_LOG_LEVEL=warning
serve_filled_bench_account "$count" 1

export LOCIFY_CLIENT_STORE="$work/client.sqlite" LOCIFY_PASSWORD=benchmark
"$bin" client login --server "http://127.0.0.1:$port" --email bench@example.com >/dev/null
echo "first sync into an empty store:"
"$bin" client sync 2>/dev/null
# The store's size once SQLite has folded its write-ahead log into the file.
python3 - "$LOCIFY_CLIENT_STORE" "$count" <<'PY'
import os, sqlite3, sys
path, count = sys.argv[1], int(sys.argv[2])
with sqlite3.connect(path) as db:
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    contacts = db.execute("SELECT COUNT(*) FROM record WHERE type = 'contact'").fetchone()[0]
    kinds = db.execute("SELECT type, COUNT(*), AVG(LENGTH(synced)) FROM record GROUP BY type ORDER BY COUNT(*) DESC").fetchall()
size = os.path.getsize(path) + (os.path.getsize(path + "-wal") if os.path.exists(path + "-wal") else 0)
print(f"store: {size / 1e6:.1f} MB for {contacts} contacts (with their addresses) and {count} places: "
      f"{size / contacts / 1024:.2f} KB per contact, everything counted")
print("  records kept: " + ", ".join(f"{count} {kind} ({average:.0f} bytes of JSON each)" for kind, count, average in kinds))
PY

# 100 contacts edited on the server, then the sync that brings them.
python3 - "$port" "$token" <<'PY'
import json, sys, urllib.request
port, token = sys.argv[1], sys.argv[2]
def call(method, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as response:
        return json.load(response)
for contact in call("GET", "/api/contacts?limit=100")["data"]:
    call("PUT", f"/api/contacts/{contact['id']}", {"nickname": f"Edited {contact['id']}"})
PY
echo "incremental sync of 100 changes:"
"$bin" client sync 2>/dev/null
"$bin" client bench --rounds 1000
# SDK_KEEP_STORE=path keeps the synced store there, to look into it afterwards.
if [ -n "${SDK_KEEP_STORE:-}" ]; then cp "$LOCIFY_CLIENT_STORE" "$SDK_KEEP_STORE"; fi
