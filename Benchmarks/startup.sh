#!/usr/bin/env bash
# Start-up, from exec until /health answers, two ways: on a fresh data directory (the first start: the
# database is made and every migration runs) and on an existing one (every restart after). Then how long
# the gazetteer takes to load on the CPU pool after start-up, and the slowest request answered while it
# loads, so no request is seen to wait for it. Targets: under 100 ms both ways.
# Usage: bash Benchmarks/startup.sh [runs]
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
source Benchmarks/common.sh
release_binary
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$bin" "$work" "$runs" <<'PY'
import http.client, os, re, socket, statistics, subprocess, sys, time
binary, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

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

def start(data, label):
    """Starts the server on `data`, returns (ms until /health answered, the running process, its port, log)."""
    port = free_port()
    log = open(os.path.join(work, f"server-{label}.log"), "w+")
    began = time.perf_counter()
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", data],
                              stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "LOCIFY_LOG_LEVEL": "info"})
    while True:
        try:
            if get(port, "/health") == 200:
                break
        except OSError:
            time.sleep(0.001)
        if time.perf_counter() - began > 10:
            server.terminate()
            sys.exit(f"the server did not answer /health within 10 s ({label})")
    return (time.perf_counter() - began) * 1000, server, port, log

fresh, restarts, loads, slowest, unready = [], [], [], [], 0
for run in range(runs):
    data = os.path.join(work, f"data-{run}")
    elapsed, server, _, _ = start(data, f"fresh-{run}")
    fresh.append(elapsed)
    server.terminate(); server.wait()
    subprocess.run([binary, "user", "create", "--email", "bench@example.com", "--name", "Bench", "--password",
                    "benchmark", "--data-dir", data], check=True, stdout=subprocess.DEVNULL)
    token = subprocess.run([binary, "token", "create", "--email", "bench@example.com", "--name", "bench",
                            "--data-dir", data], check=True, capture_output=True, text=True).stdout.split()[-1]
    elapsed, server, port, log = start(data, f"restart-{run}")
    restarts.append(elapsed)
    try:
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
        log.flush(); log.seek(0)
        ready = re.search(r"Gazetteer ready: (\d+) places in (\d+) ms", log.read())
        if ready:
            loads.append(float(ready.group(2)))
        else:
            unready += 1
    finally:
        server.terminate()
        server.wait()

def line(label, values):
    return (f"{label}, median of {len(values)}: {statistics.median(values):.0f} ms "
            f"(min {min(values):.0f}, max {max(values):.0f})")
print(line("start-up on a fresh data directory (migrations included)", fresh))
print(line("start-up on an existing data directory", restarts))
if loads:
    print(f"gazetteer load after start-up, median: {statistics.median(loads):.0f} ms (on the CPU pool)")
if unready:
    print(f"the gazetteer was not ready within 1.5 s in {unready} of {runs} runs (a busy machine?)")
print(f"slowest request while it loaded, worst run: {max(slowest):.1f} ms")
PY
