#!/usr/bin/env bash
# Two browsers change the same account offline, the server changes it too, and all three must end equal:
# two headless Chromium profiles sign in to one account (100 contacts, 100 places) and keep it on their
# device; with the server stopped, each makes 50 changes through the web app's own forms (A: 25 contacts'
# nicknames, 15 new places, 10 favorites; B: the same 25 contacts' companies, 15 new places, 10 other
# contacts' nicknames); the server is started again and 20 changes are made through the API (the same
# contacts' descriptions); then each browser opens a page, which sends its changes and brings the others.
# Prints how long it took to converge, and checks every change arrived once: the server's copy (a full
# sync download) and each browser's IndexedDB copy are the same records at the same revisions, every one
# of the 120 changes is in them, and no place was made twice.
# Target (issue 23): the server and both browsers converge, 0 lost, 0 duplicated.
# Usage: bash Benchmarks/offline-convergence.sh
# Builds a release binary unless LOCIFY_BIN names one; needs chromium, chromium-driver and the browser
# suite's Python (.build/e2e-venv, made by .ci/run). Sends traffic only to 127.0.0.1; SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh
release_binary
python=.build/e2e-venv/bin/python
[ -x "$python" ] || { python3 -m venv .build/e2e-venv && "$python" -m pip install --quiet selenium; }

work=$(mktemp -d)
cleanup() {
  [ -f "$work/server.pid" ] && { kill -TERM "$(cat "$work/server.pid")" 2>/dev/null || true; }
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
export LOCIFY_GEOCODER=off LOCIFY_GRAVATAR_URL=off LOCIFY_TILE_URL=off LOCIFY_LOG_LEVEL=warning LOCIFY_WORKERS=0

write_bench_files 100 "$work" 1
data="$work/data"
make_bench_account "$data"
"$bin" import contacts "$work/contacts.vcf" --email bench@example.com --data-dir "$data" | head -n 1
"$bin" import places "$work/places.csv" --email bench@example.com --data-dir "$data" | head -n 1
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

"$python" - "$bin" "$data" "$port" "$token" "$work" <<'PY'
import json, shutil, subprocess, sys, tempfile, time, urllib.request
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

binary, data, port, token, work = sys.argv[1:6]
base = f"http://127.0.0.1:{port}"
server = None


def start_server():
    global server
    server = subprocess.Popen([binary, "serve", "--port", port, "--data-dir", data],
                              stdout=open(f"{work}/server.log", "a"), stderr=subprocess.STDOUT)
    open(f"{work}/server.pid", "w").write(str(server.pid))
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/health", timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def stop_server():
    server.terminate()
    server.wait(timeout=30)


def api(method, path, body=None):
    request = urllib.request.Request(
        base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"{}")


def download():
    """The account as the sync feed gives it to any client: {(type, uuid): (revision, data)}."""
    records, cursor = {}, ""
    while True:
        page = api("GET", "/api/sync?limit=500" + (f"&cursor={cursor}" if cursor else ""))
        for change in page["changes"]:
            records[(change["type"], change["uuid"])] = (change["revision"], change["data"])
        for deletion in page["deletions"]:
            records.pop((deletion["type"], deletion["uuid"]), None)
        cursor = page["cursor"]
        if not page["has_more"]:
            return records


def browser():
    options = Options()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                     f"--user-data-dir={tempfile.mkdtemp(dir=work)}"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def footer(d):
    return d.execute_script("const e = document.getElementById('offline-sync'); return e ? e.textContent : '';") or ""


def sign_in(driver):
    driver.get(base + "/login")
    driver.find_element(By.ID, "email").send_keys("bench@example.com")
    driver.find_element(By.ID, "password").send_keys("benchmark")
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        "return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"))
    driver.refresh()
    WebDriverWait(driver, 300, poll_frequency=0.2).until(lambda d: " pages, brought up to date" in footer(d))


def submit(driver, form):
    driver.execute_script("window.locifyOldPage = true")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(driver, 20).until(lambda d: not d.execute_script("return window.locifyOldPage === true"))


def edit_contact(driver, contact_id, field, value):
    driver.get(f"{base}/contacts/{contact_id}/edit")
    control = driver.find_element(By.ID, field)
    control.clear()
    control.send_keys(value)
    submit(driver, driver.find_element(By.CSS_SELECTOR, "main form[data-sync-type=contact]"))


def new_place(driver, name, category_id):
    driver.get(base + "/places/new")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "latitude").send_keys("48.85")
    driver.find_element(By.ID, "longitude").send_keys("2.35")
    driver.execute_script("document.getElementById('category_id').value = arguments[0];", str(category_id))
    submit(driver, driver.find_element(By.CSS_SELECTOR, "form.place-form"))


def mark_favorite(driver, place_id):
    driver.get(f"{base}/places/{place_id}")
    submit(driver, driver.find_element(By.CSS_SELECTOR, "form.favorite-form"))


def device_copy(driver):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const open = indexedDB.open('locify');"
        "open.onsuccess = () => {"
        "  const all = open.result.transaction('records').objectStore('records').getAll();"
        "  all.onsuccess = () => { done(all.result.map(r => [r.type, r.uuid, r.revision])); open.result.close(); };"
        "};")


def waiting(driver):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "LocifyStore.changes().then(c => done([c.waiting.length, c.refused.length]), e => done([-1, -1]));")


start_server()
contacts = sorted(c["id"] for c in api("GET", "/api/contacts?limit=100")["data"])
places = sorted(p["id"] for p in api("GET", "/api/places?limit=100")["data"])
category = api("GET", "/api/categories")["data"][0]["id"]
first, second = browser(), browser()
try:
    sign_in(first)
    sign_in(second)
    stop_server()

    began = time.perf_counter()
    for n, contact in enumerate(contacts[:25]):
        edit_contact(first, contact, "nickname", f"A{n}")
        edit_contact(second, contact, "company", f"B{n}")
    for n in range(15):
        new_place(first, f"A place {n}", category)
        new_place(second, f"B place {n}", category)
    for n in range(10):
        mark_favorite(first, places[n])
        edit_contact(second, contacts[25 + n], "nickname", f"B{25 + n}")
    offline_seconds = time.perf_counter() - began
    kept = [waiting(first), waiting(second)]
    assert kept == [[50, 0], [50, 0]], kept

    start_server()
    for n, contact in enumerate(contacts[:20]):
        api("PUT", f"/api/contacts/{contact}", {"description": f"S{n}"})

    began = time.perf_counter()
    for driver in (first, second):
        driver.get(base + "/contacts")
    WebDriverWait(first, 120, poll_frequency=0.2).until(lambda d: waiting(d) == [0, 0])
    WebDriverWait(second, 120, poll_frequency=0.2).until(lambda d: waiting(d) == [0, 0])
    # Each brings what the other sent: one more sync each, as the next page load would.
    server_copy = download()
    expected = sorted([t, u, r] for (t, u), (r, _) in server_copy.items())
    for driver in (first, second):
        WebDriverWait(driver, 120, poll_frequency=0.5).until(lambda d: (d.execute_async_script(
            "const done = arguments[arguments.length - 1]; LocifyStore.sync().then(() => done(true), () => done(false));")
            and sorted(device_copy(d)) == expected))
    converged = time.perf_counter() - began

    by_id = {data["id"]: data for (kind, _), (_, data) in server_copy.items() if kind == "contact"}
    lost = []
    for n, contact in enumerate(contacts[:25]):
        if by_id[contact]["nickname"] != f"A{n}":
            lost.append(f"contact {contact} nickname")
        if by_id[contact]["information"]["career"]["company"] != f"B{n}":
            lost.append(f"contact {contact} company")
        if n < 20 and by_id[contact]["description"] != f"S{n}":
            lost.append(f"contact {contact} description")
    for n in range(10):
        if by_id[contacts[25 + n]]["nickname"] != f"B{25 + n}":
            lost.append(f"contact {contacts[25 + n]} nickname")
    place_data = [data for (kind, _), (_, data) in server_copy.items() if kind == "place"]
    favorites = {p["id"] for p in place_data if p["is_favorite"]}
    lost += [f"place {p} favorite" for p in places[:10] if p not in favorites]
    names = [p["name"] for p in place_data]
    wanted = [f"{who} place {n}" for who in "AB" for n in range(15)]
    lost += [name for name in wanted if name not in names]
    duplicated = [name for name in set(names) if names.count(name) > 1]
    print(f"offline: 2 browsers × 50 changes through the forms in {offline_seconds:.1f} s; server: 20 changes")
    print(f"converged in {converged:.1f} s after the server came back: the server and both browsers hold the same "
          f"{len(expected)} records at the same revisions; {len(lost)} lost, {len(duplicated)} duplicated"
          + (f" ({', '.join(lost[:5] + duplicated[:5])})" if lost or duplicated else ""))
    if lost or duplicated:
        sys.exit(1)
finally:
    first.quit()
    second.quit()
    if server and server.poll() is None:
        stop_server()
PY
