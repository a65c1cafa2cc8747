#!/usr/bin/env bash
# The offline web app's first download, in a real headless Chromium: one account with 1,000 contacts (two
# addresses each), 500 reminders and 1,000 places in 20 categories; the browser logs in and the page's
# script (offline-store.js) downloads the account through GET /api/sync into IndexedDB. Prints the time
# from the log-in's answer to the copy being complete, the records kept, and the site's storage as
# navigator.storage.estimate() reports it; then the time until the service worker has kept every page of
# the account, and the storage then; then a 10 × 10 km map area to zoom 16 saved through the map page's form
# (time to kept on the device, its size, the storage with it); then, with the server stopped, how fast a
# sample of those pages opens and whether each shows what it showed online, and whether every tile of the
# area answers from the device (and none outside it is stored).
# Targets (issue 23): the first download under 10 s; the area saved in under 15 s and under 15 MB; the
# account's storage with the area under 100 MB; p95 offline navigation under 300 ms.
# Usage: bash Benchmarks/offline-download.sh [contacts and places (1000)]
#        OFFLINE_PAGES=all opens every contact's and place's page and every list page instead of a sample
#        of 200 (about ten minutes more); OFFLINE_PAGES=/map,/places names the pages to open.
#        SHOW_DIFFERENCES=1 prints, for each page that differs, the lines online and offline do not share.
# Builds a release binary unless LOCIFY_BIN names one; needs chromium, chromium-driver and the browser
# suite's Python (.build/e2e-venv, made by .ci/run). Sends traffic only to 127.0.0.1; SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-1000}"
source Benchmarks/common.sh
release_binary
python=.build/e2e-venv/bin/python
[ -x "$python" ] || { python3 -m venv .build/e2e-venv && "$python" -m pip install --quiet selenium; }

work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && { kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
  [ -n "${KEEP_LOG:-}" ] && cp "$work/server.log" "$KEEP_LOG"; rm -rf "$work"
}
trap cleanup EXIT
# Nothing reaches the internet: no geocoder, no Gravatar, the bundled basemap instead of a tile server.
export LOCIFY_GEOCODER=off LOCIFY_GRAVATAR_URL=off LOCIFY_TILE_URL=off LOCIFY_LOG_LEVEL=${LOCIFY_LOG_LEVEL:-warning}

# Contacts with two postal addresses each, and places in 20 categories.
serve_filled_bench_account "$count" 2

"$python" - "$port" "$token" "$count" "$server" <<'PY'
import json, math, os, random, shutil, signal, statistics, sys, time, urllib.request
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

port, token, count, server_pid = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
base = f"http://127.0.0.1:{port}"

# 500 reminders, on the first contacts, through the API.
request = urllib.request.Request(base + "/api/contacts?limit=100", headers={"Authorization": f"Bearer {token}"})
contacts = [c["id"] for c in json.loads(urllib.request.urlopen(request).read())["data"]]
for n in range(count // 2):
    body = json.dumps({"title": f"Call {n}", "initial_date": f"2027-{1 + n % 12:02d}-{1 + n % 28:02d}",
                       "frequency_type": "year", "frequency_number": 1, "contact_id": contacts[n % len(contacts)]})
    urllib.request.urlopen(urllib.request.Request(
        base + "/api/reminders", data=body.encode(), method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})).read()

def footer(d):
    """What the page's footer says of the copy on the device."""
    return d.execute_script("const e = document.getElementById('offline-sync'); return e ? e.textContent : '';") or ""


options = Options()
options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
try:
    driver.get(base + "/login")
    driver.find_element(By.ID, "email").send_keys("bench@example.com")
    driver.find_element(By.ID, "password").send_keys("benchmark")
    began = time.perf_counter()
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(driver, 120, poll_frequency=0.05).until(lambda d: "Saved on this device:" in footer(d))
    seconds = time.perf_counter() - began
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all([LocifyStore.summary(), navigator.storage.estimate()])"
        "  .then(([s, e]) => done({counts: s.counts, usage: e.usage}));")
    records = sum(found["counts"].values())
    print(f"first download into IndexedDB: {seconds:.2f} s from the log-in's click, {records} records "
          f"({', '.join(f'{k} {v}' for k, v in sorted(found['counts'].items()))})")
    # Then the service worker keeps every page of the account (the footer says how many when done).
    WebDriverWait(driver, 600, poll_frequency=0.2).until(lambda d: " pages, brought up to date" in footer(d))
    pages_seconds = time.perf_counter() - began
    kept = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all([caches.open('locify-pages').then(c => c.keys()), navigator.storage.estimate()])"
        "  .then(([keys, e]) => done({pages: keys.length, usage: e.usage}));")
    print(f"every page of the account kept: {kept['pages']} pages, {pages_seconds:.1f} s from the log-in's click")
    print(f"site storage (navigator.storage.estimate): {found['usage'] / 1e6:.1f} MB after the records, "
          f"{kept['usage'] / 1e6:.1f} MB with the pages")

    # A 10 × 10 km area of Zürich to zoom 16, saved as a person does on the map page.
    driver.get(base + "/map")
    driver.find_element(By.CSS_SELECTOR, ".map-area-save summary").click()
    box = {"south": 47.3251, "west": 8.4737, "north": 47.4149, "east": 8.6063}
    # The box typed after the map's last move (which fills it from the view).
    driver.execute_script(
        "const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); };"
        "for (const [edge, value] of Object.entries(arguments[0])) set('area-' + edge, value);"
        "set('area-name', 'Zürich'); const zoom = document.getElementById('area-max-zoom'); zoom.value = '16';", box)
    progress = driver.find_element(By.CSS_SELECTOR, "[data-area-progress]")
    area_began = time.perf_counter()
    driver.find_element(By.CSS_SELECTOR, ".map-area-form button[type=submit]").click()
    WebDriverWait(driver, 300, poll_frequency=0.05).until(lambda d: progress.text.startswith("Saved “Zürich”"))
    area_seconds = time.perf_counter() - area_began
    area = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/map-areas').then(r => r.json()).then(a => done(a.data[0]));")
    with_area = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all([caches.open('locify-area-' + arguments[0]).then(c => c.keys()), navigator.storage.estimate()])"
        "  .then(([keys, e]) => done({paths: keys.map(k => new URL(k.url).pathname), usage: e.usage}));", area["id"])

    def tile_range(zoom):
        n, last = 2 ** zoom, 2 ** zoom - 1
        world = lambda lat, lon: ((lon + 180) / 360 * n, (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
        (x0, y0), (x1, y1) = world(area["north"], area["west"]), world(area["south"], area["east"])
        span = lambda low, high: (min(max(math.floor(low), 0), last), min(max(math.ceil(high) - 1, math.floor(low)), last))
        return span(x0, x1), span(y0, y1)

    expected = set()
    for zoom in range(area["max_zoom"] + 1):
        (x0, x1), (y0, y1) = tile_range(zoom)
        expected |= {f"/maps/basemap/{zoom}/{x}/{y}.svg" for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
    stored = {path for path in with_area["paths"] if path.startswith("/maps/")}
    print(f"map area of {area['name']} ({area['tile_count']} tiles, zooms 0–{area['max_zoom']}): kept on the device "
          f"{area_seconds:.1f} s after the click, {area['bytes'] / 1e6:.2f} MB archive; {len(stored & expected)} of "
          f"{len(expected)} tiles stored, {len(stored - expected)} outside the box; site storage with it "
          f"{with_area['usage'] / 1e6:.1f} MB")

    # With the server stopped (not the browser's offline switch: the worker's own fetches ignore it),
    # a sample of the account's pages, opened as a person would: each must show what it showed online.
    random.seed(7)
    plan = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/offline/plan.json').then(r => r.json()).then(p => done(p.types));")
    lists = {page for kind in plan.values() for page in kind["lists"]}
    if os.environ.get("OFFLINE_PAGES", "").startswith("/"):
        sample = os.environ["OFFLINE_PAGES"].split(",")
    elif os.environ.get("OFFLINE_PAGES") == "all":
        # Every contact's and place's page and every list page: the target's "100 % of those pages".
        sample = ([f"/contacts/{n}" for n in range(1, count + 1)] + [f"/places/{n}" for n in range(1, count + 1)]
                  + sorted(lists))
    else:
        ids = lambda kind: random.sample(range(1, count + 1), min(60, count))
        sample = ([f"/contacts/{n}" for n in ids("contact")] + [f"/places/{n}" for n in ids("place")]
                  + [f"/contacts/{n}/edit" for n in ids("contact")[:20]] + [f"/places/{n}/edit" for n in ids("place")[:20]]
                  + random.sample(sorted(lists), min(40, len(lists))))
    main_text = ("const main = document.querySelector('main').cloneNode(true);"
                 "for (const note of main.querySelectorAll('.offline-status, .offline-changes')) note.remove();"
                 "for (const map of main.querySelectorAll('.map')) map.remove();"
                 "return main.innerText.trim();")
    # How long a navigation takes in the browser: from its start to the load event's end (pictures and
    # map tiles drawn), as the page's Navigation Timing entry says.
    navigation = ("const n = performance.getEntriesByType('navigation')[0];"
                  "return [n.responseStart, n.domInteractive, n.domContentLoadedEventEnd, n.loadEventEnd]"
                  "  .map(t => Math.round(t - n.startTime));")
    percentile = lambda values, share: sorted(values)[max(0, int(len(values) * share) - 1)]

    def visit(paths):
        """Each page opened in turn: its text, its navigation's phases, and whether it says it is the
        device's copy."""
        seen = {}
        for path in paths:
            driver.get(base + path)
            seen[path] = (driver.execute_script(main_text), driver.execute_script(navigation),
                          driver.execute_script("return !!document.querySelector('main .offline-status[data-offline-saved-at]')"))
        return seen

    online = visit(sample)
    online_timings = [phases[-1] for _, phases, _ in online.values()]
    os.kill(server_pid, signal.SIGTERM)
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/health", timeout=1)
            time.sleep(0.1)
        except OSError:
            break
    offline = visit(sample)
    timings = [phases[-1] for _, phases, _ in offline.values()]
    by_page = [(phases[-1], path, phases) for path, (_, phases, _) in offline.items()]
    different = [path for path, (text, _, noted) in offline.items() if not noted or text != online[path][0]]
    answers = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all(arguments[0].map(p => fetch(p).then(r => r.status, () => 0))).then(done);", sorted(expected))
    print(f"map area with the server stopped: {answers.count(200)} of {len(expected)} tiles answer from the device")
    if os.environ.get("SHOW_DIFFERENCES"):
        import difflib
        for path in different:
            print(f"  {path}: " + ("not marked as the device's copy; " if not offline[path][2] else ""))
            for line in difflib.unified_diff(online[path][0].splitlines(), offline[path][0].splitlines(),
                                             "online", "offline", n=0, lineterm=""):
                print("    " + line)
    if os.environ.get("SHOW_SLOWEST"):
        for row in sorted(by_page, reverse=True)[:12]:
            print(f"  {row[0]} ms {row[1]} (first byte, parsed, DOM ready, load: {row[2]})")
    print(f"offline navigation with the server stopped: {len(sample)} pages, p50 {statistics.median(timings):.0f} ms, "
          f"p95 {percentile(timings, 0.95)} ms (online: p50 {statistics.median(online_timings):.0f} ms, "
          f"p95 {percentile(online_timings, 0.95)} ms); {len(sample) - len(different)} of {len(sample)} the same "
          "as online" + (f" (different: {', '.join(different[:5])})" if different else ""))
finally:
    driver.quit()
PY
