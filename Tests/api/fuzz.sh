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
source Tests/api/server.sh
echo "Fuzzing against $database"
start_server

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
