"""Fixtures for the browser suite: a real Locify server and a real headless Chromium."""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / ".build" / "e2e-screens"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, binary: Path, data_dir: Path, port: int):
        self.binary = binary
        self.data_dir = data_dir
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = data_dir.parent / "server.log"
        env = dict(os.environ, LOCIFY_PORT=str(port), LOCIFY_DATA_DIR=str(data_dir))
        env.pop("DATABASE_URL", None)
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
            capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"locify {' '.join(arguments)} failed: {result.stderr}"
        return result.stdout

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=20)
        finally:
            self.log.close()


@pytest.fixture(scope="session")
def server():
    binary = Path(os.environ.get("LOCIFY_BIN", ROOT / ".build" / "debug" / "locify"))
    assert binary.exists(), f"build the server first: {binary} is missing"
    workspace = Path(tempfile.mkdtemp(prefix="locify-e2e-"))
    running = Server(binary, workspace / "data", free_port())
    yield running
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
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


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
    yield from driven_window(request, "phone", 360, 800)
