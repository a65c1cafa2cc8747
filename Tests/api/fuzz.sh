#!/usr/bin/env bash
# Fuzzes every operation of /openapi.json with schemathesis against a real server on loopback:
# fails on a server error, an undocumented status, a response off its schema, valid input rejected
# or invalid input accepted. Usage: Tests/api/fuzz.sh [schemathesis binary] [sqlite|postgres]
# (LOCIFY_BIN names the server; FUZZ_ARGS adds options, e.g. --include-path-regex address). On postgres a throwaway cluster is started, as the postgres user
# when run as root, and removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
schemathesis=${1:-.build/api-venv/bin/schemathesis}
database=${2:-sqlite}
binary=${LOCIFY_BIN:-.build/debug/locify}
examples=${FUZZ_EXAMPLES:-60}
workspace=$(mktemp -d)
server_pid=""
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  [ -n "$server_pid" ] && { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
  [ -d "$workspace/pg/data" ] && as_postgres pg_ctl -D "$workspace/pg/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$workspace"
}
trap cleanup EXIT

export LOCIFY_DATA_DIR="$workspace/data"
# Contacts made by the fuzzer have e-mails: nothing may be asked of the real Gravatar.
export LOCIFY_GRAVATAR_URL=off
unset DATABASE_URL
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
case "$database" in
  sqlite) ;;
  postgres)
    mkdir -p "$workspace/pg"
    [ "$(id -u)" = 0 ] && chown postgres "$workspace" "$workspace/pg"
    pg_port=$(free_port)
    as_postgres initdb -D "$workspace/pg/data" --auth=trust -U postgres --encoding=UTF8 >/dev/null
    as_postgres pg_ctl -D "$workspace/pg/data" -l "$workspace/pg/log" -w \
      -o "-p $pg_port -k $workspace/pg -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
    export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
    ;;
  *) echo "usage: Tests/api/fuzz.sh [schemathesis] [sqlite|postgres]" >&2; exit 2 ;;
esac
echo "Fuzzing against $database"
"$binary" user create --email fuzz@example.com --name "Fuzz Tester" --password "correct horse" >/dev/null
token=$("$binary" token create --email fuzz@example.com --name fuzz | tail -n 1)
port=$(free_port)
LOCIFY_PORT=$port "$binary" serve >"$workspace/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.2
done

status=0
# ensure_resource_availability reads a 404 after a create as the created record being gone; here a call
# naming, in its body, a missing or another account's record (a tag, a contact, a kind of field) answers
# 404 by design, as Monica does for an id in a body (POST /api/contacts, then unsetTag with made-up ids).
"$schemathesis" --config-file Tests/api/schemathesis.toml run "http://127.0.0.1:$port/openapi.json" --url "http://127.0.0.1:$port" \
  -H "Authorization: Bearer $token" --checks all --exclude-checks ensure_resource_availability \
  --max-examples "$examples" ${FUZZ_ARGS:-} --workers 1 \
  --seed "${FUZZ_SEED:-20261122}" --no-color || status=$?
if grep -q "Something went wrong on the server" "$workspace/server.log"; then
  echo "The server logged an internal error during fuzzing:" >&2
  grep -B2 -A8 "error" "$workspace/server.log" | tail -n 40 >&2
  status=1
fi
exit $status
