#!/usr/bin/env bash
# Reminders at scale, on loopback: one user with 10,000 reminders (50 for each of 200 contacts, every kind
# of schedule), and the reminder reads people wait for: the timeline, this month's upcoming list (the API)
# and the Reminders page (the web app), each as requests per second with p50/p99 latency (medians over
# the rounds). Target: p50 under 20 ms for the timeline and upcoming/0.
# Usage: bash Benchmarks/reminders.sh [seconds per route and round] [connections] [rounds] [reminders]
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-5}"
connections="${2:-1}"
rounds="${3:-3}"
count="${4:-10000}"
source Benchmarks/common.sh
ensure_wrk
release_binary
start_bench_server

# The reminders go in through the API, as a client would put them; the session cookie is for the web page.
cookie=$(python3 - "$port" "$token" "$count" <<'PY'
import http.cookiejar, json, random, re, sys, urllib.parse, urllib.request
port, token, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = f"http://127.0.0.1:{port}"
def post(path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())["data"]
contacts = [post("/api/contacts", {"first_name": f"Person {n:03d}", "last_name": "Łukasiewicz"})["id"]
            for n in range(200)]
random.seed(7)
kinds = [("one_time", 1), ("week", 1), ("week", 2), ("month", 1), ("month", 3), ("year", 1)]
for n in range(count):
    kind, every = kinds[n % len(kinds)]
    day = f"{random.randint(2015, 2027)}-{random.randint(1, 12):02d}-{random.randint(1, 28):02d}"
    post(f"/api/contacts/{contacts[n % len(contacts)]}/reminders",
         {"title": f"Reminder {n}", "initial_date": day, "frequency_type": kind, "frequency_number": every})
jar = http.cookiejar.CookieJar()
browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
page = browser.open(base + "/login").read().decode()
csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
form = urllib.parse.urlencode({"_csrf": csrf, "email": "bench@example.com", "password": "benchmark"}).encode()
browser.open(base + "/login", data=form).read()
print("; ".join(f"{c.name}={c.value}" for c in jar))
PY
)

results=$(mktemp)
for round in $(seq "$rounds"); do
  wrk_round "$round" "GET /api/reminders/timeline" /api/reminders/timeline "Authorization: Bearer $token"
  wrk_round "$round" "GET /api/reminders/upcoming/0" /api/reminders/upcoming/0 "Authorization: Bearer $token"
  wrk_round "$round" "GET /reminders (web page)" /reminders "Cookie: $cookie"
done

PYTHONPATH=Benchmarks python3 - "$results" "$connections" "$rounds" "$duration" "$count" <<'PY'
import statistics, sys
from wrk_results import rounds
labels, by_round = rounds(sys.argv[1])
median = statistics.median
print(f"{sys.argv[5]} reminders of one user, {sys.argv[2]} connections, SQLite, release build, "
      f"{sys.argv[3]} rounds of {sys.argv[4]} s per route (medians)")
print(f"{'request':<32} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
failed = False
for label in labels:
    runs = [measured[label] for measured in by_round.values()]
    errors = sum(run[3] for run in runs)
    failed |= errors > 0
    print(f"{label:<32} {median(r[0] for r in runs):>9.0f} {median(r[1] for r in runs):>8.2f} "
          f"{median(r[2] for r in runs):>8.2f}" + (f"  ({errors} errors)" if errors else ""))
sys.exit(1 if failed else 0)
PY
