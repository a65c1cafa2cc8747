"""LocifyKit's store survives its process being killed at any point of a sync. Run by
Tests/api/client-kill.sh, which starts the server and makes the account and its token:
python3 client_kill.py BINARY PORT TOKEN WORKSPACE."""
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
import uuid

binary, port, token, workspace = sys.argv[1:5]
base = f"http://127.0.0.1:{port}"
store = os.path.join(workspace, "client.sqlite")
env = {**os.environ, "LOCIFY_CLIENT_STORE": store, "LOCIFY_PASSWORD": "correct horse"}
seed = int(os.environ.get("KILL_SEED", random.randrange(1 << 30)))
rng = random.Random(seed)
ON_SERVER = 5000
MADE_HERE = 120
ROUNDS = 6


def call(method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Authorization", "Bearer " + token)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


def client(*arguments, check=True):
    done = subprocess.run([binary, "client", *arguments], env=env, capture_output=True, text=True, timeout=300)
    if check and done.returncode != 0:
        sys.exit(f"locify client {' '.join(arguments)} failed (seed {seed}):\n{done.stdout}{done.stderr}")
    return done.stdout


def killed_syncs(label, earliest, latest):
    """Starts syncs and kills each at a random moment between `earliest` and `latest` seconds until one ends by
    itself; answers how many were killed."""
    kills = 0
    for _ in range(200):
        process = subprocess.Popen([binary, "client", "sync"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Later and later: a machine slower than the first guess still lets a sync finish.
        time.sleep(rng.uniform(earliest, latest * (1 + kills / 8)))
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
            kills += 1
            continue
        out, err = process.communicate()
        if process.returncode != 0:
            sys.exit(f"a sync failed by itself during the {label} (seed {seed}):\n{out.decode()}{err.decode()}")
        return kills
    sys.exit(f"no sync finished in 200 tries during the {label} (seed {seed})")


def store_counts(type_):
    with sqlite3.connect(store) as db:
        return db.execute(
            "SELECT COUNT(*), COUNT(DISTINCT id) FROM record WHERE type = ? AND deleted_here = 0 AND synced IS NOT NULL",
            (type_,)).fetchone()


def server_contacts():
    first = call("GET", "/api/contacts?limit=100&page=1")
    found = list(first["data"])
    for page in range(2, first["meta"]["last_page"] + 1):
        found += call("GET", f"/api/contacts?limit=100&page={page}")["data"]
    return found


# The account already holds contacts to download, made through the sync feed's push, 500 at a time.
for start in range(0, ON_SERVER, 500):
    mutations = [{"id": start + i + 1, "type": "contact", "op": "create", "uuid": str(uuid.uuid4()),
                  "base_revision": None, "fields": {"first_name": f"Server {start + i}", "last_name": "Made"}}
                 for i in range(min(500, ON_SERVER - start))]
    answer = call("POST", "/api/sync", {"client_id": "seeder", "mutations": mutations})
    assert all(result["status"] == "applied" for result in answer["results"]), answer["results"][:3]

client("login", "--server", base, "--email", "fuzz@example.com")
download_kills = killed_syncs("download", 0.05, 0.8)
total, distinct = store_counts("contact")
assert total == ON_SERVER and distinct == ON_SERVER, (total, distinct, seed)

# How long a sync with nothing to do takes (the process starting, a pull of nothing): pushes are killed
# around that moment, when the request is out or its answer on its way.
started = time.monotonic()
client("sync")
idle = time.monotonic() - started
push_kills = 0
for round_ in range(ROUNDS):
    for i in range(MADE_HERE // ROUNDS):
        client("add-contact", "--first-name", f"Offline {round_ * (MADE_HERE // ROUNDS) + i}", "--last-name", "Here")
    push_kills += killed_syncs("push", idle * 0.7, idle * 1.6)
client("sync")
status = client("status")
assert "Waiting to be sent: 0" in status, status

on_server = server_contacts()
made_here = [c["first_name"] for c in on_server if c["last_name"] == "Here"]
assert sorted(made_here) == sorted(f"Offline {i}" for i in range(MADE_HERE)), (len(made_here), seed)
total, distinct = store_counts("contact")
assert total == distinct == len(on_server) == ON_SERVER + MADE_HERE, (total, distinct, len(on_server), seed)
listed = client("contacts", "--search", "offline here", "--limit", "1000").splitlines()
assert len(listed) == MADE_HERE and not any("not sent yet" in line for line in listed), listed[:3]
print(f"seed {seed}: {download_kills} syncs killed during the download of {ON_SERVER} contacts and {push_kills} "
      f"during the push of {MADE_HERE}; nothing lost, nothing twice")
