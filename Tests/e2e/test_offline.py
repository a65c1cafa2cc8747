"""The offline web app in a real browser, with the server process stopped (a service worker's own requests
bypass the browser's offline switch, so only a stopped server shows what a person without network sees) and
started again on the same data: the app is installable, pages opened online open offline with a note saying
they are this device's copy and how old it is, a page never opened shows the offline page with the saved
pages to go to, the live page returns with the server, and logging out leaves none of the account's pages on
the device."""
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import (ROOT, Account, Server, TileStandIn, assert_no_console_errors, click_and_wait_for_page,
                      free_port, log_in, shot)


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
    assert "Added 12 sample contacts" in server.cli("seed", "--demo", "--email", made.email)
    return made


def wait_for_worker(driver):
    """Until the service worker controls the page (it claims the pages open when it activates)."""
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"))


def saved_on_device(driver, url):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.open('locify-pages').then(c => c.match(arguments[0])).then(r => done(!!r), () => done(false));", url)


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

    # A page never opened: the offline page, which lists the saved pages to go to instead.
    browser.get(server.url + "/reminders")
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
    browser.get(contact_url)
    assert name not in browser.find_element(By.TAG_NAME, "body").text
