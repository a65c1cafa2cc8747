# Shared by the benchmark scripts: sourced, not run. Everything runs on loopback with a fresh data directory.

# wrk, installed from Debian when missing.
ensure_wrk() {
  command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
}

# The release binary: LOCIFY_BIN when set, else built into .build-release. Sets $bin.
release_binary() {
  bin="${LOCIFY_BIN:-}"
  if [ -z "$bin" ]; then
    swift build -c release --product locify --scratch-path .build-release >/dev/null
    bin=.build-release/release/locify
  fi
}

# The benchmark's account (bench@example.com / benchmark) in the data directory $1, and its API token in
# $token.
make_bench_account() {
  "$bin" user create --email bench@example.com --name Bench --password benchmark --data-dir "$1" >/dev/null
  token=$("$bin" token create --email bench@example.com --name bench --data-dir "$1" | tail -n 1)
}

# A server on a free port with the benchmark's account and its API token; stopped and its data removed
# when the script exits. Sets $data, $port, $token and $server.
start_bench_server() {
  data=$(mktemp -d)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  make_bench_account "$data"
  LOCIFY_LOG_LEVEL=warning LOCIFY_GRAVATAR_URL=off "$bin" serve --port "$port" --data-dir "$data" >"$data/server.log" 2>&1 &
  server=$!
  trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
}

# One wrk run of `path` with `header` in round `round`, its output listed in $results for wrk_results.py.
# Uses $connections, $duration and $port; two wrk threads at most (the server needs the other cores).
# A fifth argument names a wrk Lua script that chooses each request's path (many URLs in one run).
wrk_round() {
  local round=$1 label=$2 path=$3 header=$4 script=${5:-} output
  output=$(mktemp)
  wrk -t"$((connections < 2 ? connections : 2))" -c"$connections" -d"${duration}s" --latency -H "$header" \
    ${script:+-s "$script"} "http://127.0.0.1:$port$path" >"$output"
  printf '%s\t%s\t%s\n' "$round" "$label" "$output" >>"$results"
}

# A wrk Lua script, written to $1, whose requests go round the paths listed (one a line) in the file the
# PATH_LIST variable names when wrk runs; each wrk thread starts at its own place in the list.
write_rotating_script() {
  cat >"$1" <<'LUA'
local paths = {}
for line in io.lines(os.getenv("PATH_LIST")) do paths[#paths + 1] = line end
local next = 0
setup = function(thread) thread:set("offset", math.random(#paths)) end
init = function() next = tonumber(offset) or 0 end
request = function()
  next = next % #paths + 1
  return wrk.format("GET", paths[next])
end
LUA
}

# A throwaway PostgreSQL cluster on a free port, run as the postgres user when the script runs as root;
# sets $pg_dir and exports DATABASE_URL. stop_postgres_cluster (from the script's exit trap) removes it.
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
start_postgres_cluster() {
  pg_dir=$(mktemp -d)
  [ "$(id -u)" = 0 ] && chown postgres "$pg_dir"
  local pg_port
  pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  as_postgres initdb -D "$pg_dir/data" --auth=trust -U postgres --encoding=UTF8 -N >/dev/null
  as_postgres pg_ctl -D "$pg_dir/data" -l "$pg_dir/log" -w -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1" \
    start >/dev/null
  export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
}
stop_postgres_cluster() {
  if [ -n "${pg_dir:-}" ]; then
    as_postgres pg_ctl -D "$pg_dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
    pg_dir=""
  fi
}

# A scratch directory ($work), removed when the script exits, after the server a run left ($server) and
# the PostgreSQL cluster (start_postgres_cluster) are stopped.
make_bench_workspace() {
  work=$(mktemp -d)
  pg_dir=""
  server=""
  trap remove_bench_workspace EXIT
}
remove_bench_workspace() {
  [ -n "${server:-}" ] && { kill -TERM "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }
  stop_postgres_cluster
  rm -rf "$work"
}

# Calls `run SQLite`, then `run PostgreSQL` in a throwaway cluster, as $1 (sqlite|postgres|both) asks.
run_on_databases() {
  if [ "$1" != postgres ]; then
    unset DATABASE_URL
    run SQLite
  fi
  if [ "$1" != sqlite ]; then
    start_postgres_cluster
    run PostgreSQL
  fi
}

# An account's worth of data to import: $2/contacts.vcf, $1 contacts with $3 postal addresses each, and
# $2/places.csv, $1 places in 20 categories. The same files for the same arguments (a fixed seed).
write_bench_files() {
  python3 - "$1" "$2" "${3:-1}" <<'PY'
import random, sys
count, work, addresses = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
random.seed(5)
cities = ["Berlin", "Paris", "Lyon", "Madrid", "Roma", "Wien", "Praha", "Lisboa", "Oslo", "Dublin"]
kinds = [("HOME", "Main Street", 10000, 89999), ("WORK", "Office Road", 20000, 79999)]
with open(f"{work}/contacts.vcf", "w") as out:
    for n in range(count):
        out.write("BEGIN:VCARD\r\nVERSION:3.0\r\n")
        out.write(f"N:Person {n};Contact;;;\r\nFN:Contact Person {n}\r\n")
        for label, street, base, spread in kinds[:addresses]:
            out.write(f"ADR;TYPE={label}:;;{n} {street};{random.choice(cities)};;{base + n % spread};\r\n")
        out.write("END:VCARD\r\n")
with open(f"{work}/places.csv", "w") as out:
    out.write("name,latitude,longitude,category\n")
    for n in range(count):
        out.write(f"Place {n},{random.uniform(36, 64):.6f},{random.uniform(-10, 30):.6f},Category {n % 20}\n")
PY
}

# The benchmark's account filled with $1 contacts (each with $2 postal addresses) and $1 places in 20
# categories, served on a free port with the background workers off. Needs $work and $bin; sets $data,
# $port, $token and $server (stopped by remove_bench_workspace).
serve_filled_bench_account() {
  write_bench_files "$1" "$work" "$2"
  data="$work/data"
  make_bench_account "$data"
  "$bin" import contacts "$work/contacts.vcf" --email bench@example.com --data-dir "$data" | head -n 1
  "$bin" import places "$work/places.csv" --email bench@example.com --data-dir "$data" | head -n 1
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  LOCIFY_WORKERS=0 "$bin" serve --port "$port" --data-dir "$data" >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
}
