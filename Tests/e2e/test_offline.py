"""The offline web app in a real browser, with the server process stopped (a service worker's own requests
bypass the browser's offline switch, so only a stopped server shows what a person without network sees) and
started again on the same data: the app is installable, pages opened online open offline with a note saying
they are this device's copy and how old it is, a page never opened shows the offline page with the saved
pages to go to, the live page returns with the server, and logging out leaves none of the account's pages on
the device."""
import datetime
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import (PARIS, ROOT, Account, Server, TileStandIn, api, assert_no_console_errors,
                      click_and_wait_for_page, fill, free_port, log_in, shot, unfold)


class RestartableServer:
    """A server of the test's own, on one port and one data directory (and database), so it can be stopped
    and started again as the same origin with the same data."""

    def __init__(self, database_url):
        self.binary = Path(os.environ.get("LOCIFY_BIN", ROOT / ".build" / "debug" / "locify"))
        self.workspace = Path(tempfile.mkdtemp(prefix="locify-e2e-offline-"))
        self.port = free_port()
        self.tiles = TileStandIn()
        self.database_url = database_url
        self.running = None
        self.start()

    def start(self):
        self.running = Server(self.binary, self.workspace / "data", self.port, self.tiles, self.database_url)
        return self.running

    def stop(self):
        assert self.running.stop() == 0, self.running.log_path.read_text()

    def close(self):
        if self.running.process.poll() is None:
            self.stop()
        self.tiles.stop()
        shutil.rmtree(self.workspace, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgres"])
def own_server(request):
    database_url = None
    if request.param == "postgres":
        # A database of its own in the suite's cluster: the shared server keeps the other.
        cluster = request.getfixturevalue("postgres_url")
        name = f"offline_{uuid.uuid4().hex[:8]}"
        # psql from the same installation as the cluster's initdb.
        psql = Path(os.path.realpath(shutil.which("initdb"))).parent / "psql"
        subprocess.run([str(psql) if psql.exists() else "psql", cluster, "-q", "-c", f"CREATE DATABASE {name}"],
                       check=True, capture_output=True)
        database_url = cluster.rsplit("/", 1)[0] + "/" + name
    server = RestartableServer(database_url)
    yield server
    server.close()


def make_account(server):
    made = Account(name="Ada Lovelace", email=f"ada-{uuid.uuid4().hex[:10]}@example.com", password="analytical engine")
    server.cli("user", "create", "--email", made.email, "--name", made.name, "--password", made.password)
    assert "Added 12 sample contacts" in server.cli("seed", "--demo", "--people-only", "--email", made.email)
    return made


def wait_for_worker(driver):
    """Until the service worker controls the page (it claims the pages open when it activates). Its first install
    downloads the shell while the page's first sync and the map's tiles load too: on a loaded 2-core CI machine
    that once took over 20 s (CI 21)."""
    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"))


def saved_on_device(driver, url):
    """Whether the worker keeps `url`. Right after a log-out the browser may still be clearing the site's
    storage (the server's Clear-Site-Data), and the cache storage answers only when that is done: the
    question is asked again until it has an answer."""
    answer = None

    def answered(d):
        nonlocal answer
        answer = d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "const looked = caches.open('locify-pages').then(c => c.match(arguments[0]))"
            "  .then(r => !!r, () => false);"
            "Promise.race([looked, new Promise(r => setTimeout(() => r('busy'), 5000))]).then(done);", url)
        return answer != "busy"

    WebDriverWait(driver, 90).until(answered)
    return answer


def saved_at(driver, url):
    """When the service worker saved its copy of `url`, or None while it keeps none."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('locify-pages').then(c => c.match(arguments[0]))"
        "  .then(r => done(r ? r.headers.get('X-Locify-Saved-At') : null), () => done(null));", url)


def kept_page_text(driver, url):
    """A page as the service worker keeps it (it keeps them gzipped), or '' when it keeps none."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('locify-pages').then(c => c.match(arguments[0]))"
        "  .then(r => r ? LocifyStore.pageText(r) : '').then(done, () => done(''));", url)


def kept_basemap_tiles(driver):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.keys().then(async names => {"
        "  const name = names.find(n => n.startsWith('locify-basemap-'));"
        "  if (!name) return done([]);"
        "  const keys = await (await caches.open(name)).keys();"
        "  done(keys.map(k => k.url));"
        "}, () => done([]));")


def main_text_without_note(driver):
    return driver.execute_script(
        "const main = document.querySelector('main').cloneNode(true);"
        "for (const note of main.querySelectorAll('.offline-status')) note.remove();"
        "return main.innerText.trim();")


def test_pages_open_offline_with_the_server_stopped(own_server, browser, screens):
    server = own_server.running
    account = make_account(server)

    # Installable: Chromium finds nothing missing (manifest, icons, a worker serving the start page).
    browser.get(server.url + "/login")
    wait_for_worker(browser)
    browser.refresh()
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    assert errors == [], errors

    log_in(browser, server, account)
    wait_for_worker(browser)
    # The map drew basemap tiles where the tile server has none; the worker keeps them.
    WebDriverWait(browser, 10).until(lambda d: kept_basemap_tiles(d))
    basemap_tiles = kept_basemap_tiles(browser)
    browser.get(server.url + "/contacts")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, ".contact-row"))
    contact_url = browser.current_url
    WebDriverWait(browser, 10).until(lambda d: saved_at(d, contact_url))
    # A one-time message is the visit's, not the copy's: the page saved with it on screen keeps none.
    kept_before = saved_at(browser, contact_url)
    click_and_wait_for_page(browser, browser.find_element(By.XPATH, "//main//button[text()='This is me']"))
    assert browser.find_element(By.CSS_SELECTOR, "main .flash").text == "This contact is you."
    WebDriverWait(browser, 10).until(lambda d: saved_at(d, contact_url) not in (None, kept_before))
    assert "This contact is you." not in kept_page_text(browser, contact_url)
    browser.get(contact_url)
    name = browser.find_element(By.TAG_NAME, "h1").text
    online_text = main_text_without_note(browser)
    assert browser.find_elements(By.CSS_SELECTOR, ".offline-status") == []
    WebDriverWait(browser, 10).until(lambda d: saved_on_device(d, contact_url))
    assert_no_console_errors(browser)

    # The device losing its network while the page is open: the page says so, and stops saying it after.
    browser.execute_cdp_cmd("Network.enable", {})
    conditions = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, **conditions})
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "connection-status"))
    assert "This device has no network" in browser.find_element(By.ID, "connection-status").text
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, **conditions})
    WebDriverWait(browser, 10).until(lambda d: not d.find_elements(By.ID, "connection-status"))

    own_server.stop()

    # A page opened online: the same content, and a note saying it is this device's copy and how old.
    browser.get(contact_url)
    note = browser.find_element(By.CSS_SELECTOR, "main .offline-status")
    assert "Offline." in note.text and "saved on this device" in note.text
    assert note.find_element(By.TAG_NAME, "time").get_attribute("datetime")
    assert browser.find_element(By.TAG_NAME, "h1").text == name
    assert main_text_without_note(browser) == online_text
    # The shell came from the device too: the page is styled (the stylesheet's layout applies).
    assert browser.execute_script(
        "return getComputedStyle(document.querySelector('.site-header')).display") != "inline"
    # Its picture (seen online) shows too, and the basemap's tiles answer from the device.
    WebDriverWait(browser, 10).until(lambda d: d.execute_script(
        "const image = document.querySelector('main .avatar img'); return image && image.complete;"))
    assert browser.execute_script("return document.querySelector('main .avatar img').naturalWidth") > 0
    assert browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then(r => done(r.status), () => done('failed'));", basemap_tiles[0]) == 200
    shot(browser, screens, "80-offline-saved-contact")

    # A page not kept (Settings is not the account's data): the offline page, which lists the kept pages.
    browser.get(server.url + "/settings")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Offline"
    assert "has not been saved on this device" in browser.find_element(By.CSS_SELECTOR, ".offline-status").text
    saved = browser.find_elements(By.CSS_SELECTOR, ".saved-pages a")
    titles = [link.text for link in saved]
    # A starred contact's heading carries a star the page's title does not.
    assert name.split("\n")[0].replace("★", "").strip() in titles, titles
    shot(browser, screens, "81-offline-page")
    link = next(link for link in saved if link.get_attribute("href") == contact_url)
    click_and_wait_for_page(browser, link)
    assert browser.find_element(By.TAG_NAME, "h1").text == name

    # The server back on the same data: the live page, without the note.
    server = own_server.start()
    browser.get(contact_url)
    assert browser.find_element(By.TAG_NAME, "h1").text == name
    assert browser.find_elements(By.CSS_SELECTOR, ".offline-status") == []

    # Logging out leaves none of the account's pages on the device.
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.logout button[type=submit]"))
    assert "/login" in browser.current_url
    assert not saved_on_device(browser, contact_url)
    own_server.stop()
    try:
        browser.get(contact_url)
    except WebDriverException:
        pass  # the log-in page's new worker not ready yet: the browser's own "cannot reach" page
    assert name not in browser.find_element(By.TAG_NAME, "body").text


def device_copy(driver):
    """What the page's script keeps of the account on the device: counts by type, and the contacts."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all([LocifyStore.summary(), LocifyStore.all('contact')])"
        "  .then(([summary, contacts]) => done({counts: summary.counts, syncedAt: summary.syncedAt,"
        "    names: contacts.map(c => c.complete_name)}), error => done({error: String(error)}));")


def full_download(server, email=None, token=None):
    """The account as the sync feed answers it to a client with a token: records by type."""
    import json
    import urllib.request
    if token is None:
        token = server.cli("token", "create", "--email", email, "--name", "e2e").strip().splitlines()[-1]
    counts, cursor = {}, ""
    while True:
        query = "?limit=500" + (f"&cursor={cursor}" if cursor else "")
        request = urllib.request.Request(server.url + "/api/sync" + query, headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request) as response:
            page = json.loads(response.read())
        for change in page["changes"]:
            counts[change["type"]] = counts.get(change["type"], 0) + 1
        cursor = page["cursor"]
        if not page["has_more"]:
            return counts


def test_the_account_is_kept_on_the_device_and_kept_current(server, browser, signed_in, screens):
    # The first visit downloads the whole account: the same records the feed gives any client.
    saved = lambda d: "Saved on this device:" in d.find_element(By.ID, "offline-sync").get_attribute("textContent")
    WebDriverWait(browser, 20).until(saved)
    # A first look at the places makes the default categories: the next sync brings them. That look may be
    # the page keeper's, in the background, after this test asked the feed: the feed is asked again each time.
    feed_token = server.cli("token", "create", "--email", signed_in.email, "--name", "e2e").strip().splitlines()[-1]
    browser.refresh()
    WebDriverWait(browser, 20).until(saved)

    def device_matches_feed(driver):
        counts = device_copy(driver).get("counts") or {}
        if counts.get("category") == 4 and counts == full_download(server, token=feed_token):
            return True
        # Another sync, as the next page load or the page's timer would run.
        driver.execute_async_script("const done = arguments[arguments.length - 1]; LocifyStore.sync().then(done, done);")
        return False

    WebDriverWait(browser, 30, poll_frequency=2).until(device_matches_feed)
    copy = device_copy(browser)
    assert "error" not in copy, copy
    assert copy["counts"]["contact"] == 12 and copy["syncedAt"]

    # A contact added on the web reaches the copy at the next page load; deleting it removes it there.
    browser.get(server.url + "/contacts/new")
    browser.find_element(By.ID, "first_name").send_keys("Grace")
    browser.find_element(By.ID, "last_name").send_keys("Hopper")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
    WebDriverWait(browser, 20).until(lambda d: "Grace Hopper" in device_copy(d).get("names", []))
    shot(browser, screens, "82-device-copy-footer")
    browser.find_element(By.LINK_TEXT, "Delete").click()
    dialog = browser.find_element(By.ID, "delete-dialog")
    WebDriverWait(browser, 10).until(lambda _: dialog.get_attribute("open") is not None)
    click_and_wait_for_page(browser, dialog.find_element(By.ID, "confirm-delete"))
    WebDriverWait(browser, 20).until(lambda d: "Grace Hopper" not in device_copy(d).get("names", ["Grace Hopper"]))
    assert device_copy(browser)["counts"]["contact"] == 12
    assert_no_console_errors(browser)

    # The network coming back brings what changed elsewhere meanwhile, without a page load.
    token = server.cli("token", "create", "--email", signed_in.email, "--name", "e2e").strip().splitlines()[-1]
    contacts = api(server, token, "GET", "/api/contacts?limit=100")["data"]
    api(server, token, "PUT", f"/api/contacts/{contacts[0]['id']}", {"first_name": "Katherine", "last_name": "Johnson"})
    assert "Katherine Johnson" not in device_copy(browser)["names"]
    browser.execute_script("window.dispatchEvent(new Event('online'))")
    WebDriverWait(browser, 20).until(lambda d: "Katherine Johnson" in device_copy(d).get("names", []))

    # And so does time, while a page stays open: with the page's clock sped up (a wait of a minute or more
    # takes a second), a change made elsewhere arrives with no page load and no network event.
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source":
        "const slow = window.setInterval;"
        "window.setInterval = (work, wait, ...rest) => slow(work, wait >= 60000 ? 1000 : wait, ...rest);"})
    browser.get(server.url + "/contacts")
    WebDriverWait(browser, 20).until(saved)
    api(server, token, "PUT", f"/api/contacts/{contacts[1]['id']}", {"first_name": "Dorothy", "last_name": "Vaughan"})
    assert "Dorothy Vaughan" not in device_copy(browser)["names"]
    WebDriverWait(browser, 20).until(lambda d: "Dorothy Vaughan" in device_copy(d).get("names", []))

    # A cursor the server cannot go on from (its data restored from an older backup: 409) starts the
    # copy anew from a full download: a record the server no longer has leaves the device.
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const opening = indexedDB.open('locify');"
        "opening.onsuccess = () => {"
        "  const database = opening.result;"
        "  const transaction = database.transaction(['meta', 'records'], 'readwrite');"
        "  transaction.objectStore('meta').put('1.99999999.9999.0', 'cursor');"
        "  transaction.objectStore('records').put({type: 'contact', uuid: 'stray', id: 999999, revision: 1,"
        "    data: {id: 999999, complete_name: 'Stray Record'}});"
        "  transaction.oncomplete = () => { database.close(); done(); };"
        "};")
    assert "Stray Record" in device_copy(browser)["names"]
    assert browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/sync?cursor=1.99999999.9999.0').then(r => done(r.status));") == 409
    browser.execute_script("LocifyStore.sync()")
    WebDriverWait(browser, 20).until(lambda d: "Stray Record" not in device_copy(d).get("names", ["Stray Record"]))
    expected = full_download(server, signed_in.email)
    WebDriverWait(browser, 20).until(lambda d: device_copy(d).get("counts") == expected)
    assert "Katherine Johnson" in device_copy(browser)["names"]

    # Logging out removes the copy from the device, and the last position a map showed.
    browser.execute_script("localStorage.setItem('locify-last-position', '{\"lat\": 48.85, \"lon\": 2.35}')")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.logout button[type=submit]"))
    names = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "indexedDB.databases().then(list => done(list.map(d => d.name)), () => done(['failed']));")
    assert "locify" not in names, names
    assert browser.execute_script("return Object.keys(localStorage).filter(k => k.startsWith('locify'))") == []


def pages_kept(driver):
    """Until the footer says the pages are kept; answers how many."""
    import re
    found = {}

    def kept(d):
        text = d.find_element(By.ID, "offline-sync").get_attribute("textContent")
        match = re.search(r"and ([\d,]+) pages", text)
        if match:
            found["count"] = int(match.group(1).replace(",", ""))
        return bool(match)
    WebDriverWait(driver, 60).until(kept)
    return found["count"]


def test_pages_never_opened_open_offline_and_follow_changes(own_server, browser, screens):
    server = own_server.running
    account = make_account(server)
    token = server.cli("token", "create", "--email", account.email, "--name", "e2e").strip().splitlines()[-1]
    bakeries = api(server, token, "POST", "/api/categories", {"name": "Bakeries"})["data"]
    breads = [api(server, token, "POST", "/api/places", {
        "name": name, "latitude": 48.85, "longitude": 2.35 + i / 100, "category_id": bakeries["id"]})["data"]
        for i, name in enumerate(["Du Pain et des Idées", "Poilâne"])]
    # 16 contacts: the list has a second page, until a deletion below.
    for name in ["Ada", "Grace", "Hedy", "Katherine"]:
        api(server, token, "POST", "/api/contacts", {"first_name": name, "last_name": "Extra"})
    soon = (datetime.date.today() + datetime.timedelta(days=3)).isoformat()
    first = api(server, token, "GET", "/api/contacts?limit=1")["data"][0]
    book = api(server, token, "POST", "/api/reminders", {
        "contact_id": first["id"], "title": "Return the book", "initial_date": soon, "frequency_type": "one_time"})["data"]
    work = api(server, token, "POST", f"/api/contacts/{first['id']}/addresses", {
        "name": "Work", "street": "1 place Bellecour", "city": "Lyon", "postal_code": "69002", "country": "FR"})["data"]
    log_in(browser, server, account)
    wait_for_worker(browser)
    browser.refresh()  # the worker now controls the page; its sync asks it to keep the account's pages
    kept = pages_kept(browser)
    assert kept > 40
    contacts = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "LocifyStore.all('contact').then(list => done(list.map(c => [c.id, c.complete_name])));")
    (unseen_id, unseen_name), (gone_id, _) = sorted(contacts)[-1], sorted(contacts)[-2]
    assert_no_console_errors(browser)

    # The basemap's low zooms are kept too, the whole world to zoom 4, whatever the maps showed.
    assert len([url for url in kept_basemap_tiles(browser) if "/maps/basemap/4/" in url]) == 256

    # With the server stopped, a contact page and the list never opened here open from the device.
    own_server.stop()
    assert browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/maps/basemap/3/4/2.svg').then(r => r.text().then(t => done([r.status, t.startsWith('<svg')])),"
        "  () => done('failed'));") == [200, True]
    # A page not kept lists the app's sections and the pages saved last, not every one of them.
    browser.get(f"{server.url}/settings")
    listed = [link.get_attribute("href") for link in browser.find_elements(By.CSS_SELECTOR, ".saved-pages a")]
    assert {f"{server.url}/contacts", f"{server.url}/places", f"{server.url}/map"} <= set(listed), listed
    assert len(listed) < kept
    assert f"And {kept - len(listed)} more pages saved" in browser.find_element(By.TAG_NAME, "main").text
    browser.get(f"{server.url}/contacts/{unseen_id}")
    assert unseen_name in browser.find_element(By.TAG_NAME, "h1").text
    assert "saved on this device" in browser.find_element(By.CSS_SELECTOR, ".offline-status").text
    # Its new reminder form, never opened here, opens from the device, and keeps a reminder made offline.
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "Add reminder"))
    assert browser.find_element(By.TAG_NAME, "h1").text == f"New reminder for {unseen_name}"
    browser.find_element(By.ID, "title").send_keys("Water the plants")
    browser.execute_script(
        "const input = document.getElementById('initial_date'); input.value = arguments[0];"
        "input.dispatchEvent(new Event('change', {bubbles: true}));", soon)
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.reminder-form button.primary"))
    assert browser.current_url == f"{server.url}/contacts/{unseen_id}"
    assert "1 change waiting" in waiting_note(browser)
    # A reminder's edit form opened from the timeline (its address names the way back) is the one kept.
    browser.get(f"{server.url}/reminders")
    edit = browser.find_element(By.CSS_SELECTOR, f"main a[href^='/reminders/{book['id']}/edit?return_to=']")
    click_and_wait_for_page(browser, edit)
    assert browser.find_element(By.ID, "title").get_attribute("value") == "Return the book"
    fill(browser, "title", "Return the library book")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.reminder-form button.primary"))
    assert "2 changes waiting" in waiting_note(browser)
    # So do the contact's new address form and an address's edit form, never opened here either.
    browser.get(f"{server.url}/contacts/{unseen_id}")
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "Add an address"))
    assert browser.find_element(By.TAG_NAME, "h1").text == f"New address for {unseen_name}"
    fill(browser, "country-filter", "france")
    fill(browser, "street", "3 rue des Lilas")
    fill(browser, "city", "Lyon")
    fill(browser, "postal_code", "69003")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.address-form button.primary"))
    assert "3 changes waiting" in waiting_note(browser)
    browser.get(f"{server.url}/contacts/{first['id']}")
    click_and_wait_for_page(browser, browser.find_element(
        By.CSS_SELECTOR, f"main a[href='/contacts/{first['id']}/addresses/{work['id']}/edit']"))
    assert browser.find_element(By.ID, "street").get_attribute("value") == "1 place Bellecour"
    fill(browser, "city", "Villeurbanne")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.address-form button.primary"))
    assert "4 changes waiting" in waiting_note(browser)
    browser.get(f"{server.url}/contacts")
    assert "16 contacts" in browser.find_element(By.ID, "contacts-summary").text
    assert saved_on_device(browser, f"{server.url}/contacts?page=2")
    shot(browser, screens, "83-offline-unvisited-list")

    # Changes made elsewhere while the page was away reach the kept pages at the next sync; a page the
    # device lost (as a first download cut short would) is fetched again then too.
    server = own_server.start()
    lost_url = f"{server.url}/contacts/{sorted(contacts)[0][0]}"
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('locify-pages').then(c => c.delete(arguments[0])).then(done, done);", lost_url)
    api(server, token, "PUT", f"/api/contacts/{unseen_id}", {"first_name": "Renamed", "last_name": "Elsewhere"})
    api(server, token, "DELETE", f"/api/contacts/{gone_id}")
    # A renamed category shows on every page of its places, none of which changed itself.
    api(server, token, "PUT", f"/api/categories/{bakeries['id']}", {"name": "Boulangeries"})
    browser.get(server.url + "/map")
    # The reminders made and changed offline reached the server when it came back (at this page load).
    WebDriverWait(browser, 30).until(lambda d: "Water the plants" in [
        r["title"] for r in api(server, token, "GET", f"/api/reminders?contact_id={unseen_id}")["data"]])
    assert api(server, token, "GET", f"/api/reminders/{book['id']}")["data"]["title"] == "Return the library book"
    assert "3 rue des Lilas" in [a["street"] for a in api(server, token, "GET", f"/api/contacts/{unseen_id}/addresses")["data"]]
    assert api(server, token, "GET", f"/api/addresses/{work['id']}")["data"]["city"] == "Villeurbanne"
    WebDriverWait(browser, 30).until(lambda d: "15 contacts" in kept_page_text(d, server.url + "/contacts"))
    # The list's second page is gone with the contact: the device lets it go too.
    WebDriverWait(browser, 30).until(lambda d: not saved_on_device(d, f"{server.url}/contacts?page=2"))
    WebDriverWait(browser, 30).until(lambda d: not d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('locify-pages').then(c => c.match(arguments[0])).then(r => done(!!r), () => done(true));",
        f"{server.url}/contacts/{gone_id}"))
    WebDriverWait(browser, 30).until(lambda d: "Renamed Elsewhere" in kept_page_text(d, f"{server.url}/contacts/{unseen_id}"))
    WebDriverWait(browser, 30).until(lambda d: d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('locify-pages').then(c => c.match(arguments[0])).then(r => done(!!r), () => done(false));",
        lost_url))
    for bread in breads:
        WebDriverWait(browser, 30).until(lambda d: "Boulangeries" in kept_page_text(d, f"{server.url}/places/{bread['id']}"))
    own_server.stop()
    browser.get(f"{server.url}/contacts/{unseen_id}")
    assert "Renamed Elsewhere" in browser.find_element(By.TAG_NAME, "h1").text
    browser.get(f"{server.url}/places/{breads[1]['id']}")
    assert "Boulangeries" in browser.find_element(By.TAG_NAME, "main").text
    browser.get(f"{server.url}/contacts/{gone_id}")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Offline"


def waiting_note(driver):
    """The page's note of changes made offline, once its script has read the device's queue."""
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "const note = document.getElementById('offline-changes'); return note && !note.hidden;"))
    return driver.find_element(By.ID, "offline-changes").text


def search_results(driver, server, path, query, offline=False):
    """The names a list's search form finds, typed into the form as a person would."""
    driver.get(server.url + path)
    # A category's filters are folded above its list.
    field = unfold(driver, driver.find_element(By.CSS_SELECTOR, "main form[role=search] input[name=q]"))
    field.clear()
    field.send_keys(query)
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, "main form[role=search] button[type=submit]"))
    summary = driver.find_element(By.CSS_SELECTOR, "[data-offline-summary]")
    if offline:
        WebDriverWait(driver, 10).until(lambda d: "on this device" in summary.text)
        assert driver.find_element(By.CSS_SELECTOR, "main form[role=search] input[name=q]").get_attribute("value") == query
    return [row.find_element(By.CSS_SELECTOR, ".contact-name, strong").text.split("\n")[0].replace("★", "").strip()
            for row in driver.find_elements(By.CSS_SELECTOR, "[data-offline-search] > li")]


def map_results(driver, server, query, offline=False):
    """What the map's search finds among the account's places and contacts' addresses (the map's
    gazetteer answers only online): name, kind and distance from central Paris, in the page's order."""
    driver.get(server.url + "/map?" + urlencode({"q": query, "near": f"{PARIS[0]},{PARIS[1]}"}))
    if offline:
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-offline-summary]"))
        assert driver.find_element(By.ID, "map-q").get_attribute("value") == query
    found = []
    for row in driver.find_elements(By.CSS_SELECTOR, ".search-results .result-list > li"):
        kind = row.find_element(By.CSS_SELECTOR, ".tag").text
        if kind != "Found on the map":
            found.append((row.find_element(By.TAG_NAME, "strong").text, kind,
                          row.find_element(By.CSS_SELECTOR, "p:first-child .hint").text))
    return found


def test_changes_made_offline_reach_the_server_when_it_is_back(own_server, browser, screens):
    server = own_server.running
    account = make_account(server)
    token = server.cli("token", "create", "--email", account.email, "--name", "e2e").strip().splitlines()[-1]
    cafes = api(server, token, "POST", "/api/categories", {"name": "Cafés"})["data"]
    place = api(server, token, "POST", "/api/places", {
        "name": "Corner Café", "latitude": 51.5, "longitude": -0.12, "category_id": cafes["id"]})["data"]
    log_in(browser, server, account)
    wait_for_worker(browser)
    browser.refresh()
    pages_kept(browser)
    contacts = sorted(browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "LocifyStore.all('contact').then(list => done(list.map(c => [c.id, c.complete_name])));"))
    (edited_id, edited_name), (deleted_id, deleted_name) = contacts[0], contacts[1]
    # An address form opened online is kept, and works offline too.
    home = api(server, token, "POST", f"/api/contacts/{edited_id}/addresses", {
        "name": "Home", "street": "12 rue Mercière", "city": "Lyon", "postal_code": "69002", "country": "FR"})["data"]
    address_form = f"{server.url}/contacts/{edited_id}/addresses/{home['id']}/edit"
    # A nickname the contact's page shows, which an offline edit changes in place.
    api(server, token, "PUT", f"/api/contacts/{edited_id}", {"nickname": "Ada"})
    # And work, which the page shows as "job at company": an offline change of the company shows joined.
    api(server, token, "PUT", f"/api/contacts/{edited_id}/work", {"job": "Analyst", "company": "Babbage & Co"})
    browser.get(address_form)
    WebDriverWait(browser, 10).until(lambda d: saved_on_device(d, address_form))
    WebDriverWait(browser, 20).until(lambda d: d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "LocifyStore.sync().then(() => LocifyStore.record('address', arguments[0])).then(r => done(!!r), () => done(false));",
        home["id"]))
    WebDriverWait(browser, 30).until(lambda d: 'data-sync-field="nickname">Ada<' in kept_page_text(d, f"{server.url}/contacts/{edited_id}"))
    assert "Analyst at Babbage &amp; Co" in kept_page_text(browser, f"{server.url}/contacts/{edited_id}")
    # Searches whose answers online are compared with the same searches offline.
    kinds = {k["name"]: k["id"] for k in api(server, token, "GET", "/api/contactfieldtypes")["data"]}
    api(server, token, "POST", "/api/contactfields", {
        "contact_id": deleted_id, "contact_field_type_id": kinds["Phone"], "data": "+44 20 7946 0000"})
    searches = [("/contacts", "amelie"), ("/contacts", "LAURENT"), ("/contacts", "example.org"),
                ("/contacts", "20 7946-0000"), ("/contacts", "nobody here"),
                (f"/places/categories/{cafes['id']}", "corner cafe")]
    found_online = {search: search_results(browser, server, *search) for search in searches}
    assert len(found_online[("/contacts", "amelie")]) == 1 and found_online[("/contacts", "nobody here")] == []
    assert found_online[("/contacts", "20 7946-0000")] == [deleted_name]
    map_searches = ["corner cafe", "LYON", edited_name.split()[0], "nobody here"]
    found_on_map = {query: map_results(browser, server, query) for query in map_searches}
    assert [name for name, _, _ in found_on_map["corner cafe"]] == ["Corner Café"]
    assert any(kind == "Contact's address" for results in found_on_map.values() for _, kind, _ in results), found_on_map
    assert found_on_map["nobody here"] == []
    browser.get(server.url + "/contacts")
    WebDriverWait(browser, 20).until(lambda d: "Saved on this device" in d.find_element(By.ID, "offline-sync").text)
    assert_no_console_errors(browser)

    own_server.stop()

    # Search with the server stopped: the same rows, in the same order, from the device's copy.
    for search, online in found_online.items():
        assert search_results(browser, server, *search, offline=True) == online, search
    # The map's search too, among the device's places and contacts' addresses, nearest first.
    for query, online in found_on_map.items():
        assert map_results(browser, server, query, offline=True) == online, query

    # A place's page offline still hands off to the maps apps (they have their own offline maps) and
    # copies its text.
    browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    browser.get(f"{server.url}/places/{place['id']}")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".offline-status"))
    directions = browser.find_element(By.CSS_SELECTOR, "main .map-actions a.button.primary")
    assert directions.get_attribute("href").startswith("https://") and "51.5" in directions.get_attribute("href")
    share = browser.find_element(By.CSS_SELECTOR, "main .map-actions details.share")
    share.find_element(By.TAG_NAME, "summary").click()
    share.find_element(By.CSS_SELECTOR, "[data-copy-from$='-share-text']").click()
    WebDriverWait(browser, 10).until(lambda d: share.find_element(By.CSS_SELECTOR, ".copied").text == "Copied to the clipboard.")
    copied = browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; navigator.clipboard.readText().then(done, e => done(String(e)));")
    assert "Corner Café" in copied, copied
    shot(browser, screens, "86-offline-search")

    # An edit: only the field changed goes into the queue, and the page it leads to lists it.
    browser.get(f"{server.url}/contacts/{edited_id}/edit")
    fill(browser, "nickname", "Countess")
    fill(browser, "first_name", "Augusta")
    fill(browser, "company", "Analytical Engines")
    last_name = browser.find_element(By.ID, "last_name").get_attribute("value")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
    assert browser.current_url == f"{server.url}/contacts/{edited_id}"
    note = waiting_note(browser)
    assert "1 change waiting" in note and "Nickname" in note and "First name" in note, note
    # The page shows the new nickname where the old one was, and the name made of the new first name and
    # the kept last name, marked as not sent yet.
    shown = browser.find_element(By.CSS_SELECTOR, "main [data-sync-field='nickname']")
    WebDriverWait(browser, 10).until(lambda d: shown.text == "Countess")
    assert "waiting-value" in shown.get_attribute("class")
    name = browser.find_element(By.CSS_SELECTOR, "main h1 [data-sync-compose]")
    assert name.text == f"Augusta {last_name}".strip() and "waiting-value" in name.get_attribute("class")
    work = browser.find_element(By.CSS_SELECTOR, "main [data-sync-compose^='job']")
    assert work.text == "Analyst at Analytical Engines" and "waiting-value" in work.get_attribute("class")
    assert "Changed on this device, not sent yet" in browser.find_element(By.TAG_NAME, "h1").text

    # A favorite, a place the server will refuse (no such latitude), a place in a new category, a deletion.
    browser.get(f"{server.url}/places/{place['id']}")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.favorite-form button"))
    assert "2 changes waiting" in waiting_note(browser)
    for name, latitude, category in [("Tea Room", "200", None), ("Bakery", "51.51", "Bakeries")]:
        browser.get(f"{server.url}/places/new")
        browser.find_element(By.ID, "name").send_keys(name)
        browser.find_element(By.ID, "latitude").send_keys(latitude)
        browser.find_element(By.ID, "longitude").send_keys("-0.1")
        if category:
            browser.find_element(By.ID, "new_category").send_keys(category)
        else:
            browser.execute_script(
                "const select = document.getElementById('category_id');"
                "select.value = arguments[0]; select.dispatchEvent(new Event('change'));", str(cafes["id"]))
        click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.place-form button[type=submit]"))
    # A postal code France does not use: kept now, refused by the server later.
    browser.get(address_form)
    fill(browser, "postal_code", "ABC")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.address-form button.primary"))
    assert "6 changes waiting" in waiting_note(browser)
    browser.get(f"{server.url}/contacts/{deleted_id}")
    browser.find_element(By.LINK_TEXT, "Delete").click()
    dialog = browser.find_element(By.ID, "delete-dialog")
    WebDriverWait(browser, 10).until(lambda _: dialog.get_attribute("open") is not None)
    click_and_wait_for_page(browser, dialog.find_element(By.ID, "confirm-delete"))
    note = waiting_note(browser)
    assert "7 changes waiting" in note, note
    assert "New place “Tea Room”" in note and "New category “Bakeries”" in note and f"Deleting {deleted_name}" in note
    shot(browser, screens, "84-offline-changes-waiting")

    # The pages show them too: the rows of the contacts changed and deleted here are marked, the place
    # made here heads its category's list, and a changed record's own page says so.
    assert browser.current_url == f"{server.url}/contacts"
    def row_of(href):
        return browser.find_element(By.CSS_SELECTOR, f"[data-offline-search] a[href='{href}']").find_element(By.XPATH, "./ancestor::li")
    WebDriverWait(browser, 10).until(lambda d: "Deleted on this device, not sent yet" in row_of(f"/contacts/{deleted_id}").text)
    assert "waiting-deleted" in row_of(f"/contacts/{deleted_id}").get_attribute("class")
    assert "Changed on this device, not sent yet" in row_of(f"/contacts/{edited_id}").text
    assert f"Augusta {last_name}".strip() in row_of(f"/contacts/{edited_id}").text
    browser.get(f"{server.url}/places/categories/{cafes['id']}")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-offline-search] > li.waiting-new"))
    first = browser.find_element(By.CSS_SELECTOR, "[data-offline-search] > li:first-child").text
    assert "New place “Tea Room”" in first and "Made on this device, not sent yet" in first, first
    assert "Changed on this device, not sent yet" in row_of(f"/places/{place['id']}").text
    assert "Bakery" not in browser.find_element(By.CSS_SELECTOR, "[data-offline-search]").text, "another category's place"
    browser.get(f"{server.url}/contacts/{edited_id}")
    WebDriverWait(browser, 10).until(lambda d: "Changed on this device, not sent yet" in d.find_element(By.TAG_NAME, "h1").text)

    # The edit form opened again shows the change still waiting.
    browser.get(f"{server.url}/contacts/{edited_id}/edit")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "nickname").get_attribute("value") == "Countess")

    # Logging out would lose them: the person is asked, and can stay.
    browser.find_element(By.CSS_SELECTOR, "form.logout button[type=submit]").click()
    alert = WebDriverWait(browser, 10).until(lambda d: d.switch_to.alert)
    assert "7 changes" in alert.text and "have not reached the server" in alert.text
    alert.dismiss()
    assert browser.current_url == f"{server.url}/contacts/{edited_id}/edit"

    # The server back, and the push's answer lost on the way (the network cut mid-push): the server
    # applied it, the device keeps every change, and sending them again applies nothing twice.
    server = own_server.start()
    kept = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const original = window.fetch;"
        "window.fetch = async (url, options) => {"
        "  const response = await original(url, options);"
        "  if (options && options.method === 'POST') throw new TypeError('the answer was lost');"
        "  return response;"
        "};"
        "LocifyStore.sync().then(() => LocifyStore.changes()).then(c => done(c.waiting.length), e => done(String(e)));")
    assert kept == 7, kept
    assert "Bakery" in [p["name"] for p in api(server, token, "GET", "/api/places?limit=100")["data"]]

    # The next page load sends them again; the refused one is shown with the server's reason, and the
    # others all went through, once.
    browser.get(server.url + "/contacts")
    WebDriverWait(browser, 30).until(lambda d: "waiting" not in d.find_element(By.ID, "offline-changes").text
                                     and "not saved" in d.find_element(By.ID, "offline-changes").text)
    note = browser.find_element(By.ID, "offline-changes").text
    assert "2 changes were not saved" in note and "New place “Tea Room”" in note and "atitude" in note, note
    assert "Changes to an address of" in note and "postal code" in note.lower(), note
    assert "5 changes made on this device were saved" in note, note
    shot(browser, screens, "85-offline-change-refused")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-waiting-mark]"), "sent changes are no longer marked"
    assert api(server, token, "GET", f"/api/contacts/{edited_id}")["data"]["nickname"] == "Countess"
    assert api(server, token, "GET", f"/api/contacts/{edited_id}")["data"]["first_name"] == "Augusta"
    assert api(server, token, "GET", f"/api/places/{place['id']}")["data"]["is_favorite"] is True
    places = api(server, token, "GET", "/api/places?limit=100")["data"]
    assert [p["name"] for p in places if p["name"] in ("Tea Room", "Bakery")] == ["Bakery"]
    bakery = next(p for p in places if p["name"] == "Bakery")
    assert bakery["category"]["name"] == "Bakeries"
    categories = [c["name"] for c in api(server, token, "GET", "/api/categories")["data"]]
    assert categories.count("Bakeries") == 1, categories
    remaining = [c["id"] for c in api(server, token, "GET", "/api/contacts?limit=100")["data"]]
    assert deleted_id not in remaining and edited_id in remaining

    assert api(server, token, "GET", f"/api/addresses/{home['id']}")["data"]["postal_code"] == "69002"
    # Read and dismissed, the refusals go; the page drawn before the push is drawn again on request.
    for left in (1, 0):
        browser.find_element(By.CSS_SELECTOR, "#offline-changes button").click()
        WebDriverWait(browser, 10).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#offline-changes button")) == left)
    WebDriverWait(browser, 10).until(lambda d: "not saved" not in d.find_element(By.ID, "offline-changes").text)
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "Show this page as it is now"))
    assert "11 contacts" in browser.find_element(By.ID, "contacts-summary").text
    assert not browser.find_element(By.ID, "offline-changes").is_displayed()
    WebDriverWait(browser, 30).until(lambda d: "Countess" in kept_page_text(d, f"{server.url}/contacts/{edited_id}"))


def tile_range(box, zoom):
    """The columns and rows of the tiles at `zoom` that show some of `box` (as the server's MapBox counts)."""
    import math
    last = 2 ** zoom - 1

    def world(lat, lon):
        n = 2 ** zoom
        lat = max(-85.0511287798, min(85.0511287798, lat))
        return ((lon + 180) / 360 * n, (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)

    west_x, north_y = world(box["north"], box["west"])
    east_x, south_y = world(box["south"], box["east"])

    def span(low, high):
        first = min(max(math.floor(low), 0), last)
        return first, min(max(math.ceil(high) - 1, first), last)

    return span(west_x, east_x), span(north_y, south_y)


def area_cache_paths(driver, area_id):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('locify-area-' + arguments[0]).then(c => c.keys())"
        ".then(keys => done(keys.map(k => new URL(k.url).pathname)), () => done(null));", area_id)


def fetch_statuses(driver, paths):
    """Each path fetched from the page (through the service worker): its status and type, or 'failed'."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all(arguments[0].map(p => fetch(p).then(r => r.status + ' ' + (r.headers.get('Content-Type') || ''),"
        "  () => 'failed'))).then(done);", paths)


def pan_right(driver, map_element):
    """The map moved 80 px with the keyboard, as a person without a mouse moves it."""
    driver.execute_script("arguments[0].focus()", map_element)
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()


def assert_box_fields_follow_the_view(driver):
    in_view = driver.execute_script("return document.getElementById('home-map').locifyMap.bounds")
    for edge in ["south", "west", "north", "east"]:
        typed = float(driver.find_element(By.ID, "area-" + edge).get_attribute("value"))
        assert abs(typed - in_view[edge]) < 1e-4, (edge, typed, in_view)


def test_a_map_area_is_saved_for_offline_and_shows_with_the_server_stopped(own_server, browser, screens):
    server = own_server.running
    account = make_account(server)
    token = server.cli("token", "create", "--email", account.email, "--name", "e2e").strip().splitlines()[-1]
    # The browser may tell the position (central Paris, the suite's override): the map centres on it.
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["geolocation"]})
    log_in(browser, server, account)
    wait_for_worker(browser)
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#home-map .map-here:not(.map-here-remembered)"))

    # The form takes the box in view.
    home = browser.find_element(By.ID, "home-map")
    browser.find_element(By.CSS_SELECTOR, ".map-area-save summary").click()
    assert_box_fields_follow_the_view(browser)

    # Bad edges are refused with the reason, and nothing is saved.
    estimate = browser.find_element(By.CSS_SELECTOR, "[data-area-estimate]")
    browser.execute_script(
        "const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); };"
        "set('area-north', '99');")
    WebDriverWait(browser, 10).until(lambda d: "North must be a latitude the map shows" in estimate.text)
    browser.find_element(By.CSS_SELECTOR, ".map-area-form button[type=submit]").click()
    progress = browser.find_element(By.CSS_SELECTOR, "[data-area-progress]")
    WebDriverWait(browser, 10).until(lambda d: "North must be a latitude the map shows" in progress.text)
    assert api(server, token, "GET", "/api/map-areas")["data"] == []

    # Typed edges stay when the map moves, until the box in view is asked for again.
    pan_right(browser, home)
    assert browser.find_element(By.ID, "area-north").get_attribute("value") == "99"
    browser.find_element(By.XPATH, "//button[normalize-space()='Use the box in view']").click()
    assert_box_fields_follow_the_view(browser)

    # A box drawn on the map (about 1.7 × 0.8 km of Paris at zoom 13): press, drag, release. It is outlined
    # where it was drawn, fills the edges, and stays put (on the map and in the form) when the map moves.
    browser.find_element(By.XPATH, "//button[normalize-space()='Draw a box on the map']").click()
    ActionChains(browser).move_to_element_with_offset(home, -60, -30).click_and_hold() \
        .move_by_offset(60, 30).move_by_offset(60, 30).release().perform()
    draft = browser.find_element(By.CSS_SELECTOR, "#home-map .map-area-draft")
    frame = home.rect
    drawn_at = draft.rect
    assert abs(drawn_at["x"] - (frame["x"] + frame["width"] / 2 - 60)) <= 3, (drawn_at, frame)
    assert abs(drawn_at["y"] - (frame["y"] + frame["height"] / 2 - 30)) <= 3, (drawn_at, frame)
    assert abs(drawn_at["width"] - 120) <= 4 and abs(drawn_at["height"] - 60) <= 4, drawn_at
    drawn = {edge: float(browser.find_element(By.ID, "area-" + edge).get_attribute("value"))
             for edge in ["south", "west", "north", "east"]}
    in_view = browser.execute_script("return document.getElementById('home-map').locifyMap.bounds")
    assert in_view["south"] < drawn["south"] < drawn["north"] < in_view["north"], (drawn, in_view)
    assert in_view["west"] < drawn["west"] < drawn["east"] < in_view["east"], (drawn, in_view)
    pan_right(browser, home)
    assert abs(draft.rect["x"] - (drawn_at["x"] - 80)) <= 2, "the drawn box moves with the map"
    assert {edge: float(browser.find_element(By.ID, "area-" + edge).get_attribute("value")) for edge in drawn} == drawn

    # Saved to zoom 15: the estimate, then the area kept on the device.
    browser.execute_script(
        "const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); };"
        "set('area-name', 'Paris centre');"
        "const zoom = document.getElementById('area-max-zoom'); zoom.value = '15'; zoom.dispatchEvent(new Event('change', {bubbles: true}));")
    WebDriverWait(browser, 10).until(lambda d: estimate.text.startswith("To zoom 15:"))
    browser.find_element(By.CSS_SELECTOR, ".map-area-form button[type=submit]").click()
    WebDriverWait(browser, 60).until(lambda d: progress.text.startswith("Saved “Paris centre” on this device:"))
    shot(browser, screens, "map-area-saved")
    [area] = api(server, token, "GET", "/api/map-areas")["data"]
    assert area["name"] == "Paris centre" and area["max_zoom"] == 15
    assert all(abs(area[edge] - drawn[edge]) < 1e-5 for edge in drawn), (area, drawn)
    assert f"{area['tile_count']} tiles" in progress.text
    assert browser.find_elements(By.CSS_SELECTOR, "#home-map .map-area-outline"), "the map outlines the area"

    # Every tile of the area is on the device, and none outside its box.
    stored = [path for path in area_cache_paths(browser, area["id"]) if path.startswith("/maps/")]
    assert len(stored) == area["tile_count"]
    expected = set()
    for zoom in range(0, 16):
        (x0, x1), (y0, y1) = tile_range(area, zoom)
        expected |= {f"/maps/basemap/{zoom}/{x}/{y}.svg" for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
    assert set(stored) == expected

    # The kept map page is fetched again in the background, with the outline.
    WebDriverWait(browser, 30).until(lambda d: "Paris centre" in kept_page_text(d, server.url + "/map"))

    # With the server stopped every tile of the area answers from the device; one outside it does not.
    own_server.stop()
    answers = fetch_statuses(browser, sorted(expected))
    assert answers == ["200 image/svg+xml"] * len(expected), [a for a in answers if a != "200 image/svg+xml"][:5]
    (x0, _), (y0, _) = tile_range(area, 15)
    assert fetch_statuses(browser, [f"/maps/basemap/15/{x0 - 3}/{y0}.svg"]) == ["failed"]
    # The map page opens from the device and draws the area's tiles, and the last position the browser
    # told (it cannot tell one now), greyed, with the map centred on it.
    browser.execute_cdp_cmd("Emulation.setGeolocationOverride", {})
    browser.get(server.url + "/map")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".offline-status"))
    assert browser.find_elements(By.CSS_SELECTOR, "#home-map .map-area-outline")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#home-map .map-here.map-here-remembered"))
    assert browser.execute_script("return LocifyPosition.remembered()") == {"lat": PARIS[0], "lon": PARIS[1]}
    home, here = browser.find_element(By.ID, "home-map").rect, browser.find_element(By.CSS_SELECTOR, ".map-here").rect
    assert abs(here["x"] + here["width"] / 2 - (home["x"] + home["width"] / 2)) <= 2
    assert abs(here["y"] + here["height"] / 2 - (home["y"] + home["height"] / 2)) <= 2
    shot(browser, screens, "map-area-offline")

    # Back online, Settings lists it as kept here; deleting it removes the device's copy too.
    server = own_server.start()
    browser.get_log("browser")  # the offline part's failed requests were the point of it
    browser.get(server.url + "/settings/map-areas")
    row = browser.find_element(By.ID, "area-" + area["id"])
    WebDriverWait(browser, 10).until(lambda d: "On this device:" in row.text)
    assert f"{area['tile_count']} tiles" in row.text
    click_and_wait_for_page(browser, row.find_element(By.CSS_SELECTOR, "[data-area-delete] button"))
    assert "“Paris centre” was deleted." in browser.find_element(By.TAG_NAME, "main").text
    assert browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; caches.has('locify-area-' + arguments[0]).then(done);", area["id"]) is False
    assert api(server, token, "GET", "/api/map-areas")["data"] == []
    assert_no_console_errors(browser)


def test_a_category_shared_with_the_account_opens_offline_and_follows_its_owner(own_server, browser):
    """A member's device keeps the pages of a category shared with it, never opened there, from the category's own
    feed: they open with the server stopped, follow the owner's changes, lose a place moved out, and are gone
    once the sharing ends."""
    server = own_server.running
    owner = make_account(server)
    member = make_account(server)
    token = server.cli("token", "create", "--email", owner.email, "--name", "e2e").strip().splitlines()[-1]
    trips = api(server, token, "POST", "/api/categories", {"name": "Trips"})["data"]
    lyon, nice = [api(server, token, "POST", "/api/places", {
        "name": name, "latitude": 45.7 + i, "longitude": 4.8 + i, "category_id": trips["id"]})["data"]
        for i, name in enumerate(["Lyon old town", "Nice harbour"])]
    share = api(server, token, "POST", f"/api/categories/{trips['id']}/shares", {"email": member.email})["data"]
    log_in(browser, server, member)
    wait_for_worker(browser)
    browser.refresh()
    place_url = f"{server.url}/places/{lyon['id']}"
    category_url = f"{server.url}/places/categories/{trips['id']}"
    WebDriverWait(browser, 90).until(lambda d: saved_on_device(d, place_url) and saved_on_device(d, category_url))
    assert "Shared with you" in kept_page_text(browser, f"{server.url}/places")

    own_server.stop()
    browser.get(category_url)
    assert "Nice harbour" in browser.find_element(By.TAG_NAME, "main").text
    assert "saved on this device" in browser.find_element(By.CSS_SELECTOR, ".offline-status").text
    browser.get(place_url)
    assert browser.find_element(By.TAG_NAME, "h1").text == "Lyon old town"

    server = own_server.start()
    browser.get_log("browser")  # the map's tiles not kept failed while the server was stopped, as expected
    token = server.cli("token", "create", "--email", owner.email, "--name", "e2e2").strip().splitlines()[-1]
    api(server, token, "PUT", f"/api/places/{lyon['id']}", {"name": "Vieux Lyon"})
    other = [c for c in api(server, token, "GET", "/api/categories")["data"] if c["id"] != trips["id"]][0]
    api(server, token, "PUT", f"/api/places/{nice['id']}", {"category_id": other["id"]})
    browser.get(f"{server.url}/map")
    browser.execute_async_script("const done = arguments[arguments.length - 1]; LocifyStore.sync().then(done, done);")
    WebDriverWait(browser, 60).until(lambda d: "Vieux Lyon" in kept_page_text(d, place_url))
    WebDriverWait(browser, 60).until(lambda d: not saved_on_device(d, f"{server.url}/places/{nice['id']}"))
    assert "Nice harbour" not in kept_page_text(browser, category_url)

    api(server, token, "DELETE", f"/api/categories/{trips['id']}/shares/{share['id']}")
    browser.execute_async_script("const done = arguments[arguments.length - 1]; LocifyStore.sync().then(done, done);")
    WebDriverWait(browser, 60).until(lambda d: not saved_on_device(d, place_url) and not saved_on_device(d, category_url))
    WebDriverWait(browser, 60).until(lambda d: "Shared with you" not in kept_page_text(d, f"{server.url}/places"))
    assert_no_console_errors(browser)
