#!/usr/bin/env bash
# Writes while the server is busy with long work: WRITERS clients (8 unless set) each create a contact
# (POST /api/contacts) every INTERVAL_MS milliseconds (100 unless set: 80 writes a second in all, about a
# third of what one server takes on the 2-core development machine), first from the moment a fresh start
# answers /health (while the gazetteer loads), then while a 100,000-place file is imported in the
# background. A write's latency counts from when it was due, not when it was sent, so a write held up
# also counts against the ones queued behind it. Prints p50/p99/max; the target is p99 under 50 ms.
# INTERVAL_MS=0 sends each write as soon as the last one answered: the writers then measure how many
# writes a second the server takes, and their latency is mostly their own queue.
# SQLite, the embedded default. Usage: bash Benchmarks/write-latency.sh [places]
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-100000}"
source Benchmarks/common.sh
release_binary
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
make_bench_account "$data"

python3 - "$bin" "$data" "$token" "$count" "${WRITERS:-8}" "${INTERVAL_MS:-100}" <<'PY'
import http.client, json, os, random, socket, statistics, subprocess, sys, threading, time
binary, data, token, count, clients = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
interval = float(sys.argv[6]) / 1000
auth = {"Authorization": f"Bearer {token}"}

random.seed(11)
rows = ["name,latitude,longitude,category"]
for n in range(count):
    rows.append(f"Place {n},{random.uniform(36, 64):.6f},{random.uniform(-10, 30):.6f},Category {n % 20}")
places = ("\n".join(rows) + "\n").encode()

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
log = open(os.path.join(data, "server.log"), "w+")
server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", data], stdout=log,
                          stderr=subprocess.STDOUT, env={**os.environ, "LOCIFY_LOG_LEVEL": "info",
                                                         "LOCIFY_GRAVATAR_URL": "off"})

def request(method, path, body=None, headers={}):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(method, path, body=body, headers={**auth, **headers})
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, payload

def writers(until):
    """Each client creates contacts one after another until `until()` is true; returns the latencies in ms."""
    latencies, lock = [], threading.Lock()
    def client(number):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        n = 0
        # The writers' due times are spread evenly over one interval.
        due = time.perf_counter() + interval * number / clients
        while not until():
            body = json.dumps({"first_name": f"Writer {number}", "last_name": f"Contact {n}"})
            now = time.perf_counter()
            if due > now:
                time.sleep(due - now)
            began = due if interval > 0 else time.perf_counter()
            connection.request("POST", "/api/contacts", body=body, headers={**auth, "Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            elapsed = (time.perf_counter() - began) * 1000
            due += interval
            if response.status != 201:
                sys.exit(f"a write answered {response.status}")
            with lock:
                latencies.append(elapsed)
            n += 1
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads: thread.start()
    for thread in threads: thread.join()
    return latencies

def report(label, latencies, seconds):
    ordered = sorted(latencies)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    print(f"{label:44} {len(ordered):6} writes  p50 {p(0.5):6.1f} ms  p99 {p(0.99):6.1f} ms  max {ordered[-1]:6.1f} ms")
    print(f"{'':44} {len(ordered) / seconds:6.0f} writes a second")
    return p(0.99)

try:
    began = time.perf_counter()
    while True:
        try:
            if request("GET", "/health")[0] == 200: break
        except OSError:
            time.sleep(0.002)
        if time.perf_counter() - began > 20: sys.exit("the server did not start")
    print(f"answering /health {1000 * (time.perf_counter() - began):.0f} ms after exec")
    started = time.perf_counter()
    during_start = writers(lambda: time.perf_counter() - started > 3)
    start_seconds = time.perf_counter() - started
    log.flush(); log.seek(0)
    ready = [line.strip() for line in log if "Gazetteer ready" in line]
    print("  " + (ready[0].split("] ")[-1] if ready else "the gazetteer was not ready within 3 s"))
    worst = report("writes in the first 3 s (gazetteer loading)", during_start, start_seconds)

    boundary = "bench-boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"places.csv\"\r\n"
            f"Content-Type: text/csv\r\n\r\n").encode() + places + f"\r\n--{boundary}--\r\n".encode()
    status, answer = request("POST", "/api/places/import", body=body,
                             headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    if status != 202: sys.exit(f"the import answered {status}: {answer[:300]}")
    imported = json.loads(answer)["data"]
    import_began = time.perf_counter()
    state = {"done": False}
    def watch():
        while not state["done"]:
            status, answer = request("GET", f"/api/imports/{imported['id']}")
            progress = json.loads(answer)["data"]
            if progress["status"] in ("done", "failed"):
                state["done"] = True
                state["status"] = progress["status"]
            time.sleep(0.2)
    watcher = threading.Thread(target=watch)
    watcher.start()
    during_import = writers(lambda: state["done"])
    watcher.join()
    print(f"  the {count:,}-place import ended {state['status']} after {time.perf_counter() - import_began:.1f} s")
    import_seconds = time.perf_counter() - import_began
    worst = max(worst, report(f"writes during the {count:,}-place import", during_import, import_seconds))
    print(f"worst p99: {worst:.1f} ms (target under 50 ms)")
finally:
    server.terminate()
    server.wait()
PY
