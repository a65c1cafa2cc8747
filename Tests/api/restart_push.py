"""A push interrupted by the server's death commits all of itself or nothing, and sending it again after the
restart applies each mutation exactly once. Run by Tests/api/restart-push.sh, which makes the database,
the account and its token: python3 restart_push.py BINARY PORT TOKEN LOG."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

binary, port, token, log_path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
base = f"http://127.0.0.1:{port}"
CONTACTS = 150


def start():
    log = open(log_path, "ab")
    server = subprocess.Popen([binary, "serve"], env={**os.environ, "LOCIFY_PORT": port}, stdout=log, stderr=log)
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/health", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    sys.exit("the server did not start: see " + log_path)


def call(method, path, body=None, timeout=60):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Authorization", "Bearer " + token)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response)


def records(uuids):
    """How many of `uuids` the account's contacts and addresses hold, from the feed as a client reads it:
    a full download, then pulls from its cursor until one brings nothing (the geocoder is still placing
    the addresses, and a change it commits during the download comes in the next pull)."""
    found, cursor, quiet = set(), "", False
    while not quiet:
        page = call("GET", f"/api/sync?types=contact,address&limit=1000&cursor={cursor}")
        found.update(change["uuid"] for change in page["changes"] if change["uuid"] in uuids)
        quiet = cursor != "" and not page["changes"] and not page["deletions"]
        cursor = page["cursor"]
        if page["has_more"]:
            quiet = False
        elif not quiet:
            time.sleep(0.2)
    return len(found)


def check(condition, message):
    if not condition:
        sys.exit("FAILED: " + message)


interrupted = 0
# The kills land at different points of a push; the last ones after it finished (a push of 300 mutations
# takes a second or two in a debug build).
for round_number, delay in enumerate([0.05, 0.2, 0.4, 0.7, 1.0, 8.0]):
    contacts = [str(uuid.uuid4()) for _ in range(CONTACTS)]
    addresses = [str(uuid.uuid4()) for _ in range(CONTACTS)]
    mutations = []
    for index, (contact, address) in enumerate(zip(contacts, addresses)):
        mutations.append({"id": 2 * index + 1, "type": "contact", "op": "create", "uuid": contact,
                          "fields": {"first_name": f"Round {round_number}", "last_name": f"Person {index}"}})
        mutations.append({"id": 2 * index + 2, "type": "address", "op": "create", "uuid": address,
                          "fields": {"contact_uuid": contact, "city": "Lyon", "country": "FR"}})
    push = {"client_id": f"restart-{round_number}", "mutations": mutations}
    everything = set(contacts) | set(addresses)

    server = start()
    answer = {}
    def send():
        try:
            answer["result"] = call("POST", "/api/sync", push)
        except OSError:
            pass  # the server died under it: what matters is what the database kept

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    time.sleep(delay)
    server.send_signal(signal.SIGKILL)
    server.wait()
    sender.join(timeout=10)

    server = start()
    kept = records(everything)
    check(kept in (0, len(everything)), f"round {round_number}: a killed push left {kept} of {len(everything)} records")
    if "result" in answer:
        check(kept == len(everything), f"round {round_number}: an answered push was lost")
    else:
        interrupted += 1
    again = call("POST", "/api/sync", push)
    statuses = {result["status"] for result in again["results"]}
    check(statuses == ({"duplicate"} if kept else {"applied"}),
          f"round {round_number}: sent again after the restart: {statuses} with {kept} records kept")
    found = records(everything)
    check(found == len(everything),
          f"round {round_number}: {found} of the push's {len(everything)} records are there after it was sent again"
          f" ({kept} kept after the kill; statuses {statuses}, answered before the kill: {'result' in answer})")
    replay = call("POST", "/api/sync", push)
    check({result["status"] for result in replay["results"]} == {"duplicate"}, f"round {round_number}: replay")
    print(f"round {round_number}: killed after {delay}s, {'mid-push' if 'result' not in answer else 'after the answer'},"
          f" {'all' if kept else 'none'} of it kept; sent again: {statuses.pop()}", flush=True)
    server.send_signal(signal.SIGTERM)
    server.wait()

check(interrupted >= 2, f"only {interrupted} kills landed during a push: the test proved too little")
check(interrupted < 6, "no push finished before its kill: the test proved too little")
print(f"A push killed mid-way kept all or nothing {interrupted} times; each was applied exactly once after restarts.")
