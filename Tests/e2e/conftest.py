"""Fixtures for the browser suite: a real Locify server and a real headless Chromium."""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / ".build" / "e2e-screens"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# A 1×1 PNG: the stand-in tile server's every tile.
TILE_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f"
    "00050001ff89993d1d0000000049454e44ae426082")


# Where the browser says it is.
PARIS = (48.8566, 2.3522)

# The one demo contact whose e-mail has a Gravatar at the stand-in.
GRAVATAR_EMAIL = "amelie.laurent@example.com"


class TileStandIn:
    """Plays the tile server and Gravatar on loopback (tests never reach the internet): tiles with an even x
    exist, the others answer 404, so a map shows both its tiles and the basemap's stand-ins for missing
    ones; /avatar/<md5> has a picture for GRAVATAR_EMAIL only."""

    def __init__(self):
        import http.server
        import threading

        requests = self.requests = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                requests.append(self.path)
                if self.path.startswith("/avatar/"):
                    import hashlib
                    known = hashlib.md5(GRAVATAR_EMAIL.encode()).hexdigest()
                    found = self.path.split("?")[0] == f"/avatar/{known}"
                    self.send_response(200 if found else 404)
                    if found:
                        self.send_header("Content-Type", "image/png")
                        self.send_header("Content-Length", str(len(TILE_PNG)))
                    self.end_headers()
                    if found:
                        self.wfile.write(TILE_PNG)
                    return
                parts = self.path.strip("/").split("/")
                if len(parts) == 3 and parts[1].isdigit() and int(parts[1]) % 2 == 0:
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.send_header("Content-Length", str(len(TILE_PNG)))
                    self.end_headers()
                    self.wfile.write(TILE_PNG)
                else:
                    self.send_response(404)
                    self.end_headers()

            def log_message(self, *arguments):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.template = self.base + "/{z}/{x}/{y}.png"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


class Server:
    def __init__(self, binary: Path, data_dir: Path, port: int, tiles: "TileStandIn", database_url: str | None):
        self.binary = binary
        self.data_dir = data_dir
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = data_dir.parent / "server.log"
        env = dict(os.environ, LOCIFY_PORT=str(port), LOCIFY_DATA_DIR=str(data_dir), LOCIFY_TILE_URL=tiles.template,
                   LOCIFY_GRAVATAR_URL=tiles.base)
        env.pop("DATABASE_URL", None)
        if database_url:
            env["DATABASE_URL"] = database_url
        self.env = env
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([str(binary), "serve"], env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log_path.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"server did not become healthy:\n{self.log_path.read_text()}")

    def cli(self, *arguments: str) -> str:
        result = subprocess.run(
            [str(self.binary), *arguments, "--data-dir", str(self.data_dir)],
            capture_output=True, text=True, timeout=120, env=self.env)
        assert result.returncode == 0, f"locify {' '.join(arguments)} failed: {result.stderr}"
        return result.stdout

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=20)
        finally:
            self.log.close()


@pytest.fixture(scope="session")
def postgres_url():
    """A throwaway PostgreSQL cluster on loopback, run as the postgres user when the suite runs as root
    (PostgreSQL refuses to run as root)."""
    workspace = tempfile.mkdtemp(prefix="locify-e2e-pg-")
    as_root = os.geteuid() == 0

    def run(*command):
        full = ["runuser", "-u", "postgres", "--", *command] if as_root else list(command)
        result = subprocess.run(full, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"{' '.join(command)} failed: {result.stderr}"

    if as_root:
        shutil.chown(workspace, "postgres")
    port = free_port()
    run("initdb", "-D", f"{workspace}/data", "--auth=trust", "-U", "postgres", "--encoding=UTF8", "-N")
    run("pg_ctl", "-D", f"{workspace}/data", "-l", f"{workspace}/log", "-w",
        "-o", f"-p {port} -h 127.0.0.1 -k {workspace}", "start")
    yield f"postgres://postgres@127.0.0.1:{port}/postgres"
    run("pg_ctl", "-D", f"{workspace}/data", "-m", "fast", "-w", "stop")
    shutil.rmtree(workspace, ignore_errors=True)


# Every browser test runs against each database the server supports.
@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def server(request):
    binary = Path(os.environ.get("LOCIFY_BIN", ROOT / ".build" / "debug" / "locify"))
    assert binary.exists(), f"build the server first: {binary} is missing"
    database_url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    workspace = Path(tempfile.mkdtemp(prefix="locify-e2e-"))
    tiles = TileStandIn()
    running = Server(binary, workspace / "data", free_port(), tiles, database_url)
    running.tiles = tiles
    yield running
    tiles.stop()
    code = running.stop()
    log = running.log_path.read_text()
    shutil.rmtree(workspace, ignore_errors=True)
    # Graceful shutdown: SIGTERM ends the process cleanly.
    assert code == 0, f"server exited with {code} on SIGTERM:\n{log}"
    assert "Locify stopped cleanly." in log, log


def make_driver(width: int, height: int):
    options = Options()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    # Headless Chromium lets pages read the position and would ask Google's network location service for
    # it; the browser is told one instead (central Paris), so no test reaches the internet.
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": PARIS[0], "longitude": PARIS[1], "accuracy": 30})
    return driver


@pytest.fixture(scope="session")
def screens():
    SCREENS.mkdir(parents=True, exist_ok=True)
    return SCREENS


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def describe_failure(request, driver, name: str):
    """When a browser test fails on a CI machine, the page it was on is the evidence: keep it."""
    report = getattr(request.node, "report_call", None)
    if report is None or not report.failed:
        return
    SCREENS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENS / f"FAILED-{name}.png"))
    body = driver.find_element("tag name", "body").text
    print(f"\n--- {name} was on {driver.current_url} ({driver.title!r}) ---\n{body[:2000]}")
    # The shared server, or a test's own (which it may stop and start again: `running`).
    if "own_server" in request.fixturenames:
        server = request.getfixturevalue("own_server").running
    else:
        server = request.getfixturevalue("server")
    print(f"--- server log (last 40 lines) ---\n" + "\n".join(server.log_path.read_text().splitlines()[-40:]))


def driven_window(request, name: str, width: int, height: int):
    driver = make_driver(width, height)
    yield driver
    describe_failure(request, driver, name)
    driver.quit()


@pytest.fixture
def browser(request):
    yield from driven_window(request, "browser", 1280, 900)


@pytest.fixture
def phone(request):
    """A 360 px phone, as its browser lays pages out: Chromium will not make a window narrower than 500 px, so
    the page is given a phone's viewport by device emulation (touch-sized, the meta viewport honoured)."""
    for driver in driven_window(request, "phone", 500, 800):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True})
        yield driver


# Helpers every browser test uses.

def wait(driver):
    return WebDriverWait(driver, 10)


def open_add_form(driver, field_id):
    """A contact page's add forms are folded until wanted: the one holding `field_id` is opened by its
    summary, as a person taps "Add a task"."""
    return unfold(driver, driver.find_element(By.ID, field_id))


def unfold(driver, element):
    """The folded parts of a page (`<details>`: a contact's further sections, an add form, a list's filters)
    holding `element`, opened from the outside in, as a person taps each summary."""
    if not element.is_displayed():
        folds = element.find_elements(By.XPATH, "ancestor::details")
        for fold in folds:  # document order: the outermost first
            if fold.get_attribute("open") is not None:
                continue
            summary = fold.find_element(By.XPATH, "./summary")
            # Clear of a phone's tab bar, as a person scrolls before tapping.
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
            summary.click()
            WebDriverWait(driver, 10).until(lambda _: fold.get_attribute("open") is not None)
        WebDriverWait(driver, 10).until(lambda _: element.is_displayed())
    return element


def fill(driver, field_id, value):
    element = driver.find_element(By.ID, field_id)
    element.clear()
    element.send_keys(value)


def click_and_wait_for_page(driver, element):
    # A click returns before the browser has the answer; without this wait a slow server (a bcrypt check
    # on a busy CI machine) leaves the next look-up reading the page that was just submitted. The element
    # is centred first: on a phone, WebDriver would otherwise scroll it under the bottom tab bar.
    mark_page(driver)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    wait_for_next_page(driver)


def mark_page(driver):
    driver.execute_script("window.locifyOldPage = true")


def wait_for_next_page(driver):
    # Waits for a new, fully parsed document. Selenium's staleness_of asks the old element whether it is
    # enabled, and mid-navigation Chromium can answer that with a generic inspector error ("Node with given
    # id does not belong to the document") instead of a stale-element one, failing the wait; any such error
    # while the page changes means "not yet".
    WebDriverWait(driver, 10, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return !window.locifyOldPage && document.readyState === 'complete'"))


def submit(driver, form_selector="main form button[type=submit]"):
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, form_selector))


def shot(driver, screens, name):
    driver.save_screenshot(str(screens / f"{name}.png"))


def assert_no_console_errors(driver):
    # A form answered with its errors (422), a refused log-in (401) or a map tile the tile server lacks
    # (the map draws the basemap's tile instead) is the page working as designed; anything else, a
    # Content-Security-Policy refusal included, is a defect.
    expected = ("status of 422", "status of 401", "/maps/tiles/")
    errors = [entry for entry in driver.get_log("browser")
              if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in expected)]
    assert errors == [], errors


def api(server, token, method, path, body=None):
    """The server's JSON API with a personal token: set-up and checks beside what a page or client does."""
    import json
    request = urllib.request.Request(
        server.url + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"{}")


@dataclass
class Account:
    name: str
    email: str
    password: str


def log_in(driver, server, account):
    driver.get(server.url + "/login")
    fill(driver, "email", account.email)
    fill(driver, "password", account.password)
    submit(driver)
    wait(driver).until(EC.url_contains("/map"))


@pytest.fixture
def account(server):
    """A fresh account with the demo's twelve people alone (a known start the tests count from), made through the
    command line: no test depends on another's."""
    made = Account(name="Ada Lovelace", email=f"ada-{uuid.uuid4().hex[:10]}@example.com", password="analytical engine")
    server.cli("user", "create", "--email", made.email, "--name", made.name, "--password", made.password)
    assert "Added 12 sample contacts" in server.cli("seed", "--demo", "--people-only", "--email", made.email)
    return made


@pytest.fixture
def lived_in_account(server):
    """A fresh account with the whole sample data: the people with their addresses, phones, reminders, notes and
    photos, and the saved places."""
    made = Account(name="Ada Lovelace", email=f"ada-{uuid.uuid4().hex[:10]}@example.com", password="analytical engine")
    server.cli("user", "create", "--email", made.email, "--name", made.name, "--password", made.password)
    assert "and 14 saved places" in server.cli("seed", "--demo", "--email", made.email)
    return made


@pytest.fixture
def signed_in(server, browser, account):
    """A desktop browser signed in to a fresh account."""
    log_in(browser, server, account)
    return account


@pytest.fixture
def signed_in_phone(server, phone, account):
    """A phone-sized browser signed in to a fresh account."""
    log_in(phone, server, account)
    return account
