#!/usr/bin/env bash
# Kills the server (SIGKILL) during sync pushes and restarts it: a push commits all of itself or nothing,
# and sent again it applies each mutation exactly once. Usage: Tests/api/restart-push.sh [sqlite|postgres]
# (LOCIFY_BIN names the server).
set -euo pipefail
cd "$(dirname "$0")/../.."
database=${1:-sqlite}
binary=${LOCIFY_BIN:-.build/debug/locify}
source Tests/api/server.sh
echo "Killing pushes on $database"
python3 Tests/api/restart_push.py "$binary" "$port" "$token" "$workspace/server.log"
