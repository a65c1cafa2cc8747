"""Two Locify instances on one PostgreSQL behind haproxy, one of them killed with SIGKILL in the middle.

Driven by Benchmarks/instances.sh, which builds or finds the binary, starts a throwaway PostgreSQL cluster
(DATABASE_URL) and installs haproxy and wrk. Everything listens on 127.0.0.1. Prints each figure, and with
--check exits non-zero when a promise does not hold: no acknowledged write lost, a session started on one
instance works on the other, every job the dead instance held runs again once its lease runs out, every
due notification delivered, none twice except under the same idempotency key.
"""

import argparse
import http.client
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LEASE_SECONDS = 5
EMAIL, PASSWORD = "ops@example.com", "operations"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def locify(binary, *arguments, env):
    done = subprocess.run([binary, *arguments], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"locify {' '.join(arguments)} failed: {done.stderr.strip()}")
    return done.stdout


class Instance:
    """One `locify serve` on its own port, against the shared database."""

    def __init__(self, name, binary, env, work):
        self.name, self.binary, self.env, self.work = name, binary, env, work
        self.port = free_port()
        self.process = None

    def start(self):
        log = open(os.path.join(self.work, f"{self.name}.log"), "a")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--data-dir", os.path.join(self.work, self.name)],
            env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health/ready", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        sys.exit(f"instance {self.name} did not become ready; see {log.name}")

    @property
    def worker_id(self):
        return f"{socket.gethostname()}:{self.process.pid}"

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def pause(self):
        self.process.send_signal(signal.SIGSTOP)

    def resume(self):
        self.process.send_signal(signal.SIGCONT)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Webhook:
    """The notifications' receiver: counts deliveries by Idempotency-Key, answering each after a pause so
    that deliveries are in flight when an instance dies."""

    def __init__(self, pause):
        self.lock = threading.Lock()
        self.by_key = {}
        self.without_key = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                key = self.headers.get("Idempotency-Key")
                time.sleep(pause)
                with outer.lock:
                    if key:
                        outer.by_key[key] = outer.by_key.get(key, 0) + 1
                    else:
                        outer.without_key += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def counts(self):
        with self.lock:
            return dict(self.by_key), self.without_key


def start_haproxy(work, instances):
    """haproxy in front of `instances` on one port, and in front of the first alone on another (so that one
    instance's throughput is measured through the same proxy); returns the process and both ports."""
    port, single = free_port(), free_port()
    servers = "\n".join(
        f"    server {i.name} 127.0.0.1:{i.port} check inter 300ms fall 1 rise 2" for i in instances)
    config = os.path.join(work, "haproxy.cfg")
    with open(config, "w") as out:
        out.write(f"""global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    retries 3
    option redispatch
    # A new connection to an instance for each request: one sent after an instance died then fails to
    # connect and goes to the other (a connection kept from before the kill would fail it instead).
    option http-server-close
    # Only a connection that was never made is tried on the other instance: a request the dead instance
    # may have applied is not sent twice.
    retry-on conn-failure
frontend locify
    bind 127.0.0.1:{port}
    default_backend instances
backend instances
    balance roundrobin
    option httpchk GET /health/live
{servers}
frontend single
    bind 127.0.0.1:{single}
    default_backend first-alone
backend first-alone
    server {instances[0].name} 127.0.0.1:{instances[0].port}
""")
    process = subprocess.Popen(["haproxy", "-f", config, "-db"], stdout=subprocess.DEVNULL,
                               stderr=open(os.path.join(work, "haproxy.log"), "w"))
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/live", timeout=1):
                return process, port, single
        except OSError:
            time.sleep(0.1)
    sys.exit("haproxy did not start; see haproxy.log")


class Client:
    """A keep-alive connection to one port that records what it sent and how it went."""

    def __init__(self, port, token):
        self.port, self.token = port, token
        self.connection = None

    def request(self, method, path, body=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            return response.status, response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = None
            return None, b""


def holds_a_job(database_url, worker_id):
    """Whether the instance `worker_id` holds a job this moment: it is killed only then, so that the run
    shows what becomes of a dead instance's jobs."""
    held = subprocess.run(
        ["psql", database_url, "-At", "-c",
         f"SELECT COUNT(*) FROM jobs WHERE locked_by = '{worker_id}' AND done_at IS NULL "
         "AND failed_at IS NULL AND locked_until > now()"], capture_output=True, text=True).stdout.strip()
    return held not in ("", "0")


def log_in(base):
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = browser.open(base + "/login").read().decode()
    csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"_csrf": csrf, "email": EMAIL, "password": PASSWORD}).encode()
    browser.open(base + "/login", data=form).read()
    return browser


def form_token(page):
    return re.search(r'name="_csrf" value="([^"]+)"', page).group(1)


def wrk_rate(port, token, seconds, connections, path="/api/contacts?limit=15", script=None):
    output = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-H", f"Authorization: Bearer {token}",
         *(["-s", script] if script else []), f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return rate, int(errors.group(1)) if errors else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--notifications", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=10, help="per throughput run")
    parser.add_argument("--backup-records", type=int, default=10000)
    parser.add_argument("--check", action="store_true", help="exit non-zero when a promise does not hold")
    parser.add_argument("--throughput", action="store_true", help="measure throughput (needs wrk)")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    failures = []

    def expect(condition, what):
        print(("  ok   " if condition else "  FAIL ") + what)
        if not condition:
            failures.append(what)

    work = tempfile.mkdtemp(prefix="locify-instances-")
    env = dict(os.environ, LOCIFY_LEASE_SECONDS=str(LEASE_SECONDS), LOCIFY_WORKERS="2", LOCIFY_GRAVATAR_URL="off",
               LOCIFY_TILE_URL="off", LOCIFY_LOG_LEVEL="warning", LOCIFY_GEOCODER="off")
    locify(binary, "migrate", "--data-dir", work, env=env)
    locify(binary, "user", "create", "--email", EMAIL, "--name", "Ops", "--password", PASSWORD, "--data-dir", work,
           env=env)
    token = locify(binary, "token", "create", "--email", EMAIL, "--name", "ops", "--data-dir", work,
                   env=env).strip().splitlines()[-1]
    first, second = Instance("first", binary, env, work), Instance("second", binary, env, work)
    first.start()
    second.start()
    haproxy, balancer, single = start_haproxy(work, [first, second])
    processes = [first, second]
    try:
        run(options, binary, env, work, token, first, second, balancer, single, expect)
    finally:
        for instance in processes:
            instance.stop()
        haproxy.terminate()
    if failures:
        print(f"{len(failures)} promise(s) broken; logs in {work}")
        sys.exit(1)
    subprocess.run(["rm", "-rf", work])


def run(options, binary, env, work, token, first, second, balancer, single, expect):
    print(f"Two instances ({first.port}, {second.port}) on one PostgreSQL behind haproxy ({balancer}); "
          f"leases of {LEASE_SECONDS} s")
    api = Client(balancer, token)
    status, body = api.request("POST", "/api/contacts", {"first_name": "Reminded", "is_birthdate_known": False})
    contact_id = json.loads(body)["data"]["id"]
    for n in range(200):
        api.request("POST", "/api/contacts", {"first_name": f"Read {n}", "is_birthdate_known": False})

    print("Sessions")
    browser = log_in(f"http://127.0.0.1:{first.port}")
    page = browser.open(f"http://127.0.0.1:{second.port}/contacts")
    expect(page.status == 200 and "/login" not in page.url,
           "a session started on the first instance works on the second")
    status, _ = Client(second.port, token).request("GET", "/api/me")
    expect(status == 200, "a token works on either instance")

    if options.throughput:
        capacity(options, work, token, first)
        throughput(options, work, token, first, balancer, single, expect)

    print(f"Notifications: {options.notifications} reminders due today, a webhook each")
    webhook = Webhook(pause=0.3)
    settings = browser.open(f"http://127.0.0.1:{first.port}/settings/notifications").read().decode()
    form = urllib.parse.urlencode({"_csrf": form_token(settings), "time_of_day": "00:00",
                                   "webhook_url": webhook.url, "webhook_preset": "json"}).encode()
    saved = browser.open(f"http://127.0.0.1:{first.port}/settings/notifications", data=form)
    expect(saved.status == 200 and "/settings/notifications" in saved.url, "the webhook is set")
    today = datetime.now(timezone.utc).strftime("%Y-%m-%d")

    # Writers and readers through the balancer for the whole run; each write acknowledged is remembered.
    stop = threading.Event()
    kill_at = [None]
    acknowledged, failures = [], []
    lock = threading.Lock()

    def writer(number):
        client = Client(balancer, token)
        n = 0
        while not stop.is_set():
            n += 1
            started = time.time()
            status, body = client.request("POST", "/api/contacts",
                                          {"first_name": f"Writer {number}-{n}", "is_birthdate_known": False})
            with lock:
                if status == 201:
                    acknowledged.append(json.loads(body)["data"]["id"])
                else:
                    failures.append((started, time.time(), "POST", status))

    def reader():
        client = Client(balancer, token)
        while not stop.is_set():
            started = time.time()
            status, _ = client.request("GET", "/api/contacts?limit=15")
            if status != 200:
                with lock:
                    failures.append((started, time.time(), "GET", status))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)] + \
              [threading.Thread(target=reader) for _ in range(3)]
    for thread in threads:
        thread.start()

    reminder_client = Client(balancer, token)
    created = 0
    held = []

    def kill_when_due():
        """Kills the second instance once a quarter of the notices went out, at a moment it holds a job."""
        nonlocal held
        if kill_at[0] is not None or len(webhook.counts()[0]) < options.notifications // 4 \
                or not holds_a_job(env["DATABASE_URL"], second.worker_id):
            return
        # A delivery takes milliseconds: the job seen held may be done before the kill lands. Stopped, the
        # instance finishes nothing, so a second look decides whether this is the moment.
        second.pause()
        if not holds_a_job(env["DATABASE_URL"], second.worker_id):
            second.resume()
            return
        second_id = second.worker_id
        second.kill()
        kill_at[0] = time.time()
        # Which jobs the dead instance held, as the operator sees them: its claims last until they run out.
        listed = locify(binary, "jobs", "list", "--state", "running", "--limit", "10000", "--data-dir", work,
                        env=env)
        held = [line.split("\t")[0] for line in listed.splitlines() if f"\t{second_id}\t" in line]
        print(f"  killed the second instance after {len(webhook.counts()[0])} deliveries; it held "
              f"{len(held)} jobs")
        threading.Timer(3, second.start).start()

    for n in range(options.notifications):
        status, _ = reminder_client.request(
            "POST", "/api/reminders",
            {"contact_id": contact_id, "title": f"Call {n}", "initial_date": today, "frequency_type": "one_time"})
        created += status == 201
        kill_when_due()
    # The reminders may all be in before a quarter of their notices went out.
    deadline = time.time() + 120
    while kill_at[0] is None and time.time() < deadline and len(webhook.counts()[0]) < created:
        kill_when_due()
        time.sleep(0.02)
    if kill_at[0] is None:
        sys.exit("the second instance held no job while the notices went out: raise --notifications")

    deadline = time.time() + 120
    due = None
    while time.time() < deadline:
        status, body = Client(balancer, token).request("GET", f"/api/reminders?limit=1")
        if status == 200:
            due = json.loads(body)["meta"]["total"]
        keys, _ = webhook.counts()
        if due is not None and len(keys) >= due:
            break
        time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join()
    time.sleep(1)  # a retry of the last delivery would show now

    keys, without_key = webhook.counts()
    resent = sum(count - 1 for count in keys.values())
    print(f"  {due} reminders due ({created} acknowledged of {options.notifications} sent), "
          f"{len(keys)} notices delivered, {resent} sent again under the same key after the kill")
    expect(len(keys) == due, "every due notification delivered")
    expect(without_key == 0, "every delivery carries an idempotency key, so none is delivered twice without it")
    expect(resent <= len(held), "only deliveries the dead instance held were sent again")
    done = locify(binary, "jobs", "list", "--state", "done", "--limit", "100000", "--data-dir", work, env=env)
    done_ids = {line.split("\t")[0] for line in done.splitlines()}
    expect(bool(held) and all(job in done_ids for job in held),
           f"every job the dead instance held ({len(held)}) ran again after its lease ran out")
    waiting = locify(binary, "jobs", "list", "--data-dir", work, env=env)
    expect("notifications.deliver\tqueued" not in waiting and "notifications.deliver\tfailed" not in waiting,
           "no delivery is left queued or failed")

    print("Writes and reads through the kill")
    status, body = Client(balancer, token).request("GET", "/api/contacts?limit=1")
    total = json.loads(body)["meta"]["total"]
    client = Client(balancer, token)
    missing = [i for i in acknowledged if client.request("GET", f"/api/contacts/{i}")[0] != 200]
    print(f"  {len(acknowledged)} writes acknowledged, {len(missing)} lost; {total} contacts in all")
    expect(not missing, "no acknowledged write lost")
    late = [f for f in failures if f[0] > kill_at[0] + 0.001]
    print(f"  {len(failures)} requests failed, {len(late)} of them sent after the kill")
    expect(len(failures) <= len(threads) + 1 and not late,
           "only requests in flight on the killed instance failed")

    if options.backup_records:
        backup(options, binary, env, work, token, expect)


def throughput(options, work, token, first, balancer, single, expect):
    """The read benchmark's routes, in turn, against one instance and against two, both through haproxy
    (and one directly, for the proxy's own cost), over rounds taken in turn; medians."""
    script = os.path.join(work, "reads.lua")
    with open(script, "w") as out:
        out.write("""local paths = {"/api/me", "/api/contacts/100", "/api/contacts?limit=15", "/api/contacts?limit=100"}
local n = 0
setup = function(thread) thread:set("offset", math.random(#paths)) end
init = function() n = tonumber(offset) or 0 end
request = function()
  n = n % #paths + 1
  return wrk.format("GET", paths[n])
end
""")
    rounds, seconds = 3, max(3, options.seconds // 2)
    print(f"Throughput of the read benchmark's routes ({rounds} rounds of {seconds} s each, 64 connections, medians)")
    rates = {"direct": [], "one": [], "two": []}
    errors = 0
    for _ in range(rounds):
        for label, port in (("direct", first.port), ("one", single), ("two", balancer)):
            rate, failed = wrk_rate(port, token, seconds, 64, "/", script)
            rates[label].append(rate)
            errors += failed
    median = {label: sorted(values)[len(values) // 2] for label, values in rates.items()}
    ratio = median["two"] / median["one"]
    print(f"  one instance, directly:        {median['direct']:.0f} requests/s")
    print(f"  one instance, through haproxy: {median['one']:.0f} requests/s")
    print(f"  two instances, through haproxy: {median['two']:.0f} requests/s ({ratio:.0%} of one through haproxy, "
          f"{median['two'] / median['direct']:.0%} of one directly)")
    expect(ratio >= 0.8, "two instances through the balancer reach at least 80 % of one instance's throughput")
    expect(errors == 0, "no request failed under load")


# What one active person asks of the server in an hour, for the capacity model: pages and API reads, the
# changes they make, a phone's sync every five minutes, and the pictures their lists show (most come from
# the browser's cache; these are the ones that do not).
HOURLY_USE = {"read": 120, "write": 20, "sync pull": 12, "avatar": 60}


def capacity(options, work, token, instance):
    """Each kind of request's cost on one instance (requests per second with 64 connections on this machine's
    cores), and what it makes of an active person's hour."""
    cores = os.cpu_count() or 1
    client = Client(instance.port, token)
    # The cursor of a client that has everything: a whole download, page after page.
    page = {"cursor": "", "has_more": True}
    while page["has_more"]:
        _, body = client.request("GET", f"/api/sync?limit=500&cursor={page['cursor']}")
        page = json.loads(body)
    cursor = page["cursor"]
    _, body = client.request("GET", "/api/contacts?limit=1")
    avatar = re.search(r'(/store/avatars/[^"]+)', body.decode()).group(1).replace("\\/", "/")
    post = os.path.join(work, "post.lua")
    with open(post, "w") as out:
        out.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                  'wrk.body = \'{"first_name":"Load","is_birthdate_known":false}\'\n')
    seconds = max(3, options.seconds // 2)
    routes = [("read", "/api/contacts?limit=15", None), ("sync pull", f"/api/sync?cursor={cursor}", None),
              ("avatar", avatar, None), ("write", "/api/contacts", post)]
    print(f"Cost of each kind of request on one instance, PostgreSQL, {cores} cores, 64 connections, {seconds} s each")
    core_seconds = 0.0
    for label, path, script in routes:
        rate, errors = wrk_rate(instance.port, token, seconds, 64, path, script)
        cost = cores / rate
        core_seconds += HOURLY_USE[label] * cost
        print(f"  {label:10} {rate:8.0f} requests/s, {cost * 1000:6.2f} ms of a core each"
              + (f" ({errors} failed)" if errors else ""))
    per_core = 3600 * 0.5 / core_seconds
    print(f"  an active person's hour ({', '.join(f'{n} {k}s' for k, n in HOURLY_USE.items())}) costs "
          f"{core_seconds:.2f} core-seconds: one core at half load serves about {per_core:.0f} active people")


def backup(options, binary, env, work, token, expect):
    count = options.backup_records
    print(f"Backup and restore of an account with {count} contacts and {count} places")
    files = os.path.join(work, "files")
    os.makedirs(files, exist_ok=True)
    with open(os.path.join(files, "contacts.vcf"), "w") as out:
        for n in range(count):
            out.write(f"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Person {n};Backup;;;\r\nFN:Backup Person {n}\r\n"
                      f"ADR;TYPE=HOME:;;{n} Main Street;Lyon;;{69000 + n % 9};\r\nEND:VCARD\r\n")
    with open(os.path.join(files, "places.csv"), "w") as out:
        out.write("name,latitude,longitude,category\n")
        for n in range(count):
            out.write(f"Place {n},{45 + n % 1000 / 1000:.4f},{4 + n % 997 / 1000:.4f},Category {n % 20}\n")
    email = "backup@example.com"
    locify(binary, "user", "create", "--email", email, "--name", "Backup", "--password", PASSWORD, "--data-dir",
           work, env=env)
    locify(binary, "import", "contacts", os.path.join(files, "contacts.vcf"), "--email", email, "--data-dir", work,
           env=env)
    locify(binary, "import", "places", os.path.join(files, "places.csv"), "--email", email, "--data-dir", work,
           env=env)
    archive = os.path.join(work, "backup.zip")
    started = time.time()
    locify(binary, "backup", "-o", archive, "--data-dir", work, env=env)
    backup_seconds = time.time() - started
    url = urllib.parse.urlparse(env["DATABASE_URL"])
    restored_url = url._replace(path="/restored").geturl()
    subprocess.run(["psql", env["DATABASE_URL"], "-q", "-c", "DROP DATABASE IF EXISTS restored",
                    "-c", "CREATE DATABASE restored"], check=True, capture_output=True)
    started = time.time()
    locify(binary, "restore", archive, "--data-dir", work, env=dict(env, DATABASE_URL=restored_url))
    restore_seconds = time.time() - started
    size = os.path.getsize(archive) / 1_048_576
    print(f"  backup {backup_seconds:.1f} s ({size:.1f} MB), restore {restore_seconds:.1f} s")
    counts = []
    for database in (env["DATABASE_URL"], restored_url):
        counted = subprocess.run(
            ["psql", database, "-At", "-c",
             "SELECT (SELECT COUNT(*) FROM contacts) || ' ' || (SELECT COUNT(*) FROM places) || ' ' || "
             "(SELECT COUNT(*) FROM addresses) || ' ' || (SELECT COUNT(*) FROM sync_tombstones)"],
            check=True, capture_output=True, text=True).stdout.strip()
        counts.append(counted)
    print(f"  contacts, places, addresses, tombstones: {counts[0]} before, {counts[1]} restored")
    expect(counts[0] == counts[1], "the restored database holds what the backup was taken of")
    if count >= 10000:
        expect(backup_seconds < 10, "backup of 10,000 contacts and 10,000 places in under 10 s")
        expect(restore_seconds < 30, "restore in under 30 s")


if __name__ == "__main__":
    main()
