#!/usr/bin/env bash
# Kills `locify client sync` (SIGKILL) at random points of a download and of a push: the store keeps every
# page and every answer it finished, nothing is lost, and the server has each change exactly once.
# Usage: Tests/api/client-kill.sh [sqlite|postgres] (LOCIFY_BIN names the binary).
set -euo pipefail
cd "$(dirname "$0")/../.."
database=${1:-sqlite}
binary=${LOCIFY_BIN:-.build/debug/locify}
source Tests/api/server.sh
start_server
echo "Killing the client's syncs on $database"
python3 Tests/api/client_kill.py "$binary" "$port" "$token" "$workspace"
