#!/usr/bin/env bash
# Avatars at scale, on loopback: one user with 1,000 contacts, half of them with a photo as their picture
# and half showing initials, and their avatar URLs fetched as an image loader does (the signed URL from
# the API, no credentials), each run going round all 500 of its kind. Prints requests per second, the
# share of /health's in the same round, and p50/p99 latency (medians over the rounds).
# Target: p50 under 2 ms, and at least half of /health's requests per second, at 16 connections (the
# default; at 64 every route queues, /health included, and the p50 target no longer means anything).
# Usage: bash Benchmarks/avatars.sh [seconds per route and round] [connections] [rounds]
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-5}"
connections="${2:-16}"
rounds="${3:-3}"
source Benchmarks/common.sh
ensure_wrk
release_binary
start_bench_server

lists=$(mktemp -d)
python3 - "$port" "$token" "$lists" <<'PY'
import base64, json, struct, sys, urllib.request, zlib
port, token, lists = sys.argv[1], sys.argv[2], sys.argv[3]
base = f"http://127.0.0.1:{port}"

def call(method, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())["data"]

def png(seed):
    # A real 64×64 picture, different for every contact (about 12 kB: a small phone photo's thumbnail).
    raw = b"".join(b"\x00" + bytes(((x * 7 + y * 3 + seed) % 256 for x in range(64 * 3))) for y in range(64))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 0)) + chunk(b"IEND", b""))

photos, initials = [], []
for n in range(1000):
    contact = call("POST", "/api/contacts", {"first_name": f"Person {n:04d}", "last_name": "Łukasiewicz"})
    if n % 2 == 0:
        data = "data:image/png;base64," + base64.b64encode(png(n)).decode()
        photo = call("POST", "/api/photos", {"contact_id": contact["id"], "data": data})
        contact = call("PUT", f"/api/contacts/{contact['id']}/avatar", {"source": "photo", "photo_id": photo["id"]})
        photos.append(contact["information"]["avatar"]["url"])
    else:
        initials.append(contact["information"]["avatar"]["url"])
for name, urls in (("photos", photos), ("initials", initials)):
    with open(f"{lists}/{name}.txt", "w") as listing:
        listing.write("\n".join(url.replace(base, "") for url in urls) + "\n")
PY

# Each wrk thread goes round the list from its own place.
write_rotating_script "$lists/rotate.lua"

results=$(mktemp)
for round in $(seq "$rounds"); do
  wrk_round "$round" "GET /health" /health "Accept: */*"
  PATH_LIST="$lists/photos.txt" wrk_round "$round" "avatar: photo (500 contacts)" / "Accept: */*" "$lists/rotate.lua"
  PATH_LIST="$lists/initials.txt" wrk_round "$round" "avatar: initials (500)" / "Accept: */*" "$lists/rotate.lua"
done
rm -rf "$lists"

python3 Benchmarks/wrk_results.py "$results" \
  "$connections connections, SQLite, 1,000 contacts, release build, $rounds rounds of $duration s per route (medians; ratio range over the rounds)"
