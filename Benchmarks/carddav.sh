#!/usr/bin/env bash
# CardDAV at the size of a real address book, on loopback: one account with 1,000 contacts (two postal
# addresses each). A client written here does what DAVx5 and Apple's Contacts do, through HTTP:
# - the first download to an empty device: PROPFIND Depth 1 for the cards' ETags, then
#   addressbook-multiget of 100 cards at a time with their text; the total time (also: one
#   sync-collection from no token with every card's text, as vdirsyncer-like clients ask);
# - an upload of 1,000 new cards (a name, an e-mail, a phone number, an address each), one PUT each with
#   If-None-Match: *, one after another as a device sends them: the total time;
# - an incremental sync after 3 contacts changed through the API: sync-collection from the last token
#   with the changed cards' text, 20 rounds: p50 and p99 of the request's time (send to last byte).
# Targets (issue 24): first download under 5 s, upload under 30 s, incremental sync under 100 ms, on
# both databases.
# Usage: bash Benchmarks/carddav.sh [contacts (1000)] [sqlite|postgres|both]
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1. PostgreSQL runs
# in a throwaway cluster (as the postgres user when run as root). Geocoding is off.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-1000}"
databases="${2:-both}"
source Benchmarks/common.sh
release_binary

make_bench_workspace
export LOCIFY_GEOCODER=off LOCIFY_GRAVATAR_URL=off LOCIFY_TILE_URL=off LOCIFY_LOG_LEVEL=warning

write_bench_files "$count" "$work" 2

run() {
  local label=$1
  local data="$work/data-$label"
  make_bench_account "$data"
  "$bin" import contacts "$work/contacts.vcf" --email bench@example.com --data-dir "$data" | head -n 1
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  LOCIFY_WORKERS=0 "$bin" serve --port "$port" --data-dir "$data" >"$data.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
  python3 - "$port" "$token" "$label" "$count" <<'PY'
import base64, http.client, json, re, statistics, sys, time, uuid
port, token, label, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
basic = "Basic " + base64.b64encode(f"bench@example.com:{token}".encode()).decode()
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
book = "/dav/addressbooks/contacts/"
DAV = 'xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"'


def call(method, path, body=None, headers=None, expect=(200, 201, 204, 207)):
    sent = {"Authorization": basic, "Content-Type": "application/xml; charset=utf-8", **(headers or {})}
    began = time.perf_counter()
    connection.request(method, path, body=body.encode() if body else None, headers=sent)
    response = connection.getresponse()
    text = response.read().decode()
    elapsed = time.perf_counter() - began
    assert response.status in expect, (method, path, response.status, text[:300])
    return text, elapsed


# The first download: ETags, then the cards 100 at a time.
began = time.perf_counter()
listing, _ = call("PROPFIND", book, '<d:propfind %s><d:prop><d:getetag/></d:prop></d:propfind>' % DAV, {"Depth": "1"})
hrefs = [href for href in re.findall(r"<d:href>([^<]+)</d:href>", listing) if href != book]
cards = 0
for start in range(0, len(hrefs), 100):
    body = ('<card:addressbook-multiget %s><d:prop><d:getetag/><card:address-data/></d:prop>' % DAV
            + "".join(f"<d:href>{href}</d:href>" for href in hrefs[start:start + 100]) + "</card:addressbook-multiget>")
    text, _ = call("REPORT", book, body)
    cards += text.count("BEGIN:VCARD")
download = time.perf_counter() - began
assert cards == count, (cards, count)
text, single = call("REPORT", book, '<d:sync-collection %s><d:sync-token/><d:sync-level>1</d:sync-level>'
                    '<d:prop><d:getetag/><card:address-data/></d:prop></d:sync-collection>' % DAV)
assert text.count("BEGIN:VCARD") == count
token_now = re.search(r"<d:sync-token>([^<]+)</d:sync-token>", text).group(1)
print(f"{label}: first download of {count} cards: {download:.2f} s (PROPFIND and {len(range(0, len(hrefs), 100))} "
      f"multigets of 100); one sync-collection with every card: {single:.2f} s")

# An upload of new cards, one PUT each.
began = time.perf_counter()
for n in range(count):
    card = (f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:{uuid.uuid4()}\r\nN:Upload {n};Device;;;\r\nFN:Device Upload {n}\r\n"
            f"EMAIL;TYPE=INTERNET:device{n}@example.org\r\nTEL;TYPE=CELL:+44 20 7946 {n:04d}\r\n"
            f"ADR;TYPE=HOME:;;{n} High Street;London;;;\r\nX-PHONE-ONLY:{n}\r\nEND:VCARD\r\n")
    call("PUT", f"{book}device-{n}.vcf", card, {"If-None-Match": "*", "Content-Type": "text/vcard"})
upload = time.perf_counter() - began
print(f"{label}: upload of {count} new cards, one PUT each: {upload:.1f} s ({upload / count * 1000:.1f} ms a card)")

# Incremental syncs: 3 contacts changed through the API, then what changed since the last token.
api = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
connection.request("GET", "/api/contacts?limit=50", headers=api)
ids = [contact["id"] for contact in json.loads(connection.getresponse().read())["data"]]
text, _ = call("REPORT", book, '<d:sync-collection %s><d:sync-token>%s</d:sync-token><d:sync-level>1</d:sync-level>'
               '<d:prop><d:getetag/></d:prop></d:sync-collection>' % (DAV, token_now))
token_now = re.search(r"<d:sync-token>([^<]+)</d:sync-token>", text).group(1)
timings = []
for round_number in range(21):
    for contact in ids[round_number % 10 * 3:round_number % 10 * 3 + 3]:
        connection.request("PUT", f"/api/contacts/{contact}", body=json.dumps({"nickname": f"Round {round_number}"}),
                           headers=api)
        connection.getresponse().read()
    text, elapsed = call("REPORT", book, '<d:sync-collection %s><d:sync-token>%s</d:sync-token>'
                         '<d:sync-level>1</d:sync-level><d:prop><d:getetag/><card:address-data/></d:prop>'
                         '</d:sync-collection>' % (DAV, token_now))
    assert text.count("BEGIN:VCARD") == 3, text[:500]
    token_now = re.search(r"<d:sync-token>([^<]+)</d:sync-token>", text).group(1)
    if round_number:  # the first warms the statements
        timings.append(elapsed * 1000)
timings.sort()
print(f"{label}: incremental sync of 3 changed cards: p50 {statistics.median(timings):.1f} ms, "
      f"p99 {timings[int(0.99 * (len(timings) - 1))]:.1f} ms")
PY
  kill -TERM "$server"; wait "$server" 2>/dev/null || true; server=""
}

run_on_databases "$databases"
