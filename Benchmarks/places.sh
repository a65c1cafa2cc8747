#!/usr/bin/env bash
# Places at scale, on loopback: one user with 100,000 places (seven in ten around 60 European cities, the
# rest anywhere in Europe), asked through HTTP for the places within 10 km of a point (`near` +
# `within_km`, nearest first) and for text (`q`: a place's whole name, and a word that some 5,000 of the
# places have in their name), each run going round 200 different questions. Prints p50/p99 latency (medians over the rounds) on SQLite and on PostgreSQL.
# Target: p50 under 5 ms through HTTP on both databases. One connection by default: the latency of one
# person's request; more connections (the second argument) measure it under load instead.
# Usage: bash Benchmarks/places.sh [seconds per route and round] [connections] [rounds] [places] [sqlite|postgres|both]
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1. PostgreSQL runs
# in a throwaway cluster (as the postgres user when run as root).
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-5}"
connections="${2:-1}"
rounds="${3:-3}"
count="${4:-100000}"
databases="${5:-both}"
source Benchmarks/common.sh
ensure_wrk
release_binary

make_bench_workspace

# The places file, the near points (the cities and random points) and the search words.
python3 - "$count" "$work" <<'PY'
import random, sys
count, work = int(sys.argv[1]), sys.argv[2]
random.seed(7)
cities = [(48.8566, 2.3522), (51.5074, -0.1278), (52.52, 13.405), (40.4168, -3.7038), (41.9028, 12.4964),
          (45.764, 4.8357), (43.2965, 5.3698), (50.8503, 4.3517), (52.3676, 4.9041), (48.2082, 16.3738),
          (50.0755, 14.4378), (47.4979, 19.0402), (52.2297, 21.0122), (55.6761, 12.5683), (59.3293, 18.0686),
          (60.1699, 24.9384), (59.9139, 10.7522), (53.3498, -6.2603), (38.7223, -9.1393), (41.3851, 2.1734),
          (45.4642, 9.19), (48.1351, 11.582), (50.1109, 8.6821), (53.5511, 9.9937), (51.2277, 6.7735),
          (47.3769, 8.5417), (46.2044, 6.1432), (43.6047, 1.4442), (44.8378, -0.5792), (47.2184, -1.5536),
          (50.6292, 3.0573), (43.7102, 7.262), (37.9838, 23.7275), (42.6977, 23.3219), (44.4268, 26.1025),
          (45.815, 15.9819), (46.0569, 14.5058), (54.6872, 25.2797), (56.9496, 24.1052), (59.437, 24.7536),
          (39.4699, -0.3763), (37.3891, -5.9845), (43.263, -2.935), (40.8518, 14.2681), (43.7696, 11.2558),
          (45.4408, 12.3155), (44.4949, 11.3426), (51.9244, 4.4777), (51.2194, 4.4025), (50.9375, 6.9603),
          (49.6116, 6.1319), (48.5734, 7.7521), (47.0707, 15.4395), (49.1951, 16.6068), (50.0647, 19.945),
          (51.1079, 17.0385), (54.352, 18.6466), (57.7089, 11.9746), (55.605, 13.0038), (63.4305, 10.3951)]
words = ["Café", "Bäckerei", "Museum", "Park", "Bistro", "Trattoria", "Bar", "Market", "Gallery", "Garden",
         "Église", "Station", "Bridge", "Tower", "Beach", "Library", "Theatre", "Pizzeria", "Hotel", "Castle"]
quarters = ["du Marché", "am Ring", "de la Gare", "del Sol", "Nord", "Centrale", "Vieux Port", "Altstadt",
            "Riverside", "Santa Maria", "Saint-Michel", "Königsplatz", "Old Town", "Les Halles", "Plaza Mayor"]
names = []
with open(f"{work}/places.csv", "w") as out:
    out.write("name,latitude,longitude,category,notes\n")
    for n in range(count):
        if random.random() < 0.7:
            lat, lon = random.choice(cities)
            lat += random.gauss(0, 0.12)
            lon += random.gauss(0, 0.17)
        else:
            lat, lon = random.uniform(36, 64), random.uniform(-10, 30)
        name = f"{random.choice(words)} {random.choice(quarters)} {n}"
        names.append(name)
        out.write(f"{name},{lat:.6f},{lon:.6f},{random.choice(words)}s,Visited {n % 97} times\n")
with open(f"{work}/near.txt", "w") as out:
    for n in range(200):
        if n % 2 == 0:
            lat, lon = random.choice(cities)
            lat += random.gauss(0, 0.05)
            lon += random.gauss(0, 0.07)
        else:
            lat, lon = random.uniform(36, 64), random.uniform(-10, 30)
        out.write(f"/api/places?near={lat:.5f},{lon:.5f}&within_km=10&sort=distance\n")
from urllib.parse import quote
with open(f"{work}/names.txt", "w") as out:
    for name in random.sample(names, 200):
        out.write(f"/api/places?q={quote(name.lower())}\n")
with open(f"{work}/search.txt", "w") as out:
    terms = [w.lower() for w in words] + [q.split()[-1].lower() for q in quarters] + ["cafe du", "konigs", "halles 1"]
    for n in range(200):
        out.write(f"/api/places?q={random.choice(terms).replace(' ', '%20')}\n")
PY

write_rotating_script "$work/rotate.lua"

# Fills a data directory (and database) with the account and its places, then serves it.
serve() {
  local label=$1
  data="$work/data-$label"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  make_bench_account "$data"
  local started=$SECONDS
  "$bin" import places "$work/places.csv" --email bench@example.com --data-dir "$data" | head -n 1
  echo "($label: imported in $((SECONDS - started)) s)"
  LOCIFY_LOG_LEVEL=warning LOCIFY_GRAVATAR_URL=off LOCIFY_WORKERS=0 "$bin" serve --port "$port" --data-dir "$data" \
    >"$data.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
  # What one question returns, for the record.
  curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port$(head -n 1 "$work/near.txt")" |
    python3 -c 'import json,sys; total=json.load(sys.stdin)["meta"]["total"]; print(f"  e.g. {total} places within 10 km of the first point")'
}

measure() {
  local label=$1
  results=$(mktemp)
  for round in $(seq "$rounds"); do
    wrk_round "$round" "GET /health" /health "Accept: */*"
    PATH_LIST="$work/near.txt" wrk_round "$round" "near + within_km=10" / "Authorization: Bearer $token" "$work/rotate.lua"
    PATH_LIST="$work/names.txt" wrk_round "$round" "q: a place's name" / "Authorization: Bearer $token" "$work/rotate.lua"
    PATH_LIST="$work/search.txt" wrk_round "$round" "q: a common word (~5,000)" / "Authorization: Bearer $token" "$work/rotate.lua"
  done
  python3 Benchmarks/wrk_results.py "$results" \
    "$label, $count places, $connections connections, release build, $rounds rounds of $duration s per route (medians)"
  kill -TERM "$server"; wait "$server" 2>/dev/null || true; server=""
}

if [ "$databases" != postgres ]; then
  unset DATABASE_URL
  serve sqlite
  measure SQLite
fi
if [ "$databases" != sqlite ]; then
  start_postgres_cluster
  serve postgres
  measure PostgreSQL
fi
