#!/usr/bin/env bash
# Start-up: how long from exec until /health answers (an existing data directory, as on every restart but
# the first), how long the gazetteer takes to load on the thread pool after that, and the slowest request
# answered while it loads, so no request is seen to wait for it. Usage: bash Benchmarks/startup.sh [runs]
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
bin="${LOCIFY_BIN:-}"
if [ -z "$bin" ]; then
  swift build -c release --product locify --scratch-path .build-release >/dev/null
  bin=.build-release/release/locify
fi
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
"$bin" user create --email bench@example.com --name Bench --password benchmark --data-dir "$data" >/dev/null
token=$("$bin" token create --email bench@example.com --name bench --data-dir "$data" | tail -n 1)

python3 - "$bin" "$data" "$token" "$runs" <<'PY'
import http.client, os, re, socket, statistics, subprocess, sys, time
binary, data, token, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def get(port, path, headers={}):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", path, headers=headers)
    status = connection.getresponse().status
    connection.close()
    return status

starts, loads, slowest = [], [], []
for run in range(runs):
    port = free_port()
    log = open(os.path.join(data, f"server-{run}.log"), "w+")
    began = time.perf_counter()
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", data],
                              stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "LOCIFY_LOG_LEVEL": "info"})
    try:
        while True:
            try:
                if get(port, "/health") == 200:
                    break
            except OSError:
                time.sleep(0.001)
            if time.perf_counter() - began > 10:
                sys.exit("the server did not answer /health within 10 s")
        starts.append((time.perf_counter() - began) * 1000)
        # Requests, one after another, for the next 1.5 s: the gazetteer loads meanwhile.
        worst, until = 0.0, time.perf_counter() + 1.5
        auth = {"Authorization": f"Bearer {token}"}
        while time.perf_counter() < until:
            for path, headers in (("/health", {}), ("/api/me", auth), ("/api/contacts", auth)):
                sent = time.perf_counter()
                if get(port, path, headers) != 200:
                    sys.exit(f"{path} failed during start-up")
                worst = max(worst, (time.perf_counter() - sent) * 1000)
        slowest.append(worst)
        log.flush()
        log.seek(0)
        ready = re.search(r"Gazetteer ready: (\d+) places in (\d+) ms", log.read())
        if not ready:
            sys.exit("the server did not log that the gazetteer was ready within 1.5 s")
        loads.append(float(ready.group(2)))
    finally:
        server.terminate()
        server.wait()

print(f"start-up (exec to first /health answer), median of {runs}: {statistics.median(starts):.0f} ms "
      f"(min {min(starts):.0f}, max {max(starts):.0f})")
print(f"gazetteer load after start-up, median: {statistics.median(loads):.0f} ms (on the thread pool)")
print(f"slowest request while it loaded, worst run: {max(slowest):.1f} ms")
PY
