# Shared by the scripts of Tests/api: a throwaway data directory and database (SQLite, or a PostgreSQL
# cluster started as the postgres user when run as root), an account with a token, and a Locify server on
# loopback. Source it after setting `database` (sqlite|postgres) and `binary`; everything is removed on exit.
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
# Contacts made by the tests have e-mails: nothing may be asked of the real Gravatar.
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
  *) echo "the database is sqlite or postgres, not '$database'" >&2; exit 2 ;;
esac
"$binary" user create --email fuzz@example.com --name "Fuzz Tester" --password "correct horse" >/dev/null
token=$("$binary" token create --email fuzz@example.com --name fuzz | tail -n 1)
port=$(free_port)

# Starts the server on $port and waits until it answers.
start_server() {
  LOCIFY_PORT=$port "$binary" serve >>"$workspace/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && return 0
    sleep 0.2
  done
  echo "The server did not start:" >&2
  tail -n 20 "$workspace/server.log" >&2
  return 1
}
