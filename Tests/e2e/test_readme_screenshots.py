"""The README's screenshots, made by the browser suite so they show the product as it is today: a lived-in
account (the whole sample data, as "Fill with sample data" gives it, and a reminder for today), a contact's
page on a desktop, and the map and the contact list on a phone. They are written to
`docs/screenshots/`, where the README links them; commit them after a run that changed them. The maps draw
the bundled basemap (the test's tile server only has test tiles)."""
import datetime
import re
import struct

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import ROOT, api, click_and_wait_for_page, log_in, wait

DOCS = ROOT / "docs" / "screenshots"
SHOTS = ["desktop-contact.png", "phone-map.png", "phone-contacts.png"]

def png_width(path):
    with open(path, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">I", head[16:20])[0]


def basemap_only(driver):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/maps/tiles/*"]})
    # The overview of everything, not the test's own position.
    driver.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "denied"})


def test_the_readme_screenshots_show_the_product_as_it_is(server, browser, phone, lived_in_account):
    token = server.cli("token", "create", "--email", lived_in_account.email, "--name", "screens").strip().splitlines()[-1]
    contacts = api(server, token, "GET", "/api/contacts?limit=100")["data"]
    by_name = {contact["first_name"]: contact for contact in contacts}
    api(server, token, "POST", "/api/reminders", {
        "contact_id": by_name["Amélie"]["id"], "title": "Ask about the climbing trip",
        "initial_date": datetime.date.today().isoformat(), "frequency_type": "one_time"})
    DOCS.mkdir(parents=True, exist_ok=True)

    basemap_only(browser)
    log_in(browser, server, lived_in_account)
    # Initials rather than the test Gravatar stand-in's pictures.
    browser.get(server.url + "/settings")
    look_up = browser.find_element(By.ID, "gravatar-look-up")
    if look_up.is_selected():
        look_up.click()
        click_and_wait_for_page(browser, look_up.find_element(By.XPATH, "ancestor::form//button[@type='submit']"))
    browser.get(f"{server.url}/contacts/{by_name['Amélie']['id']}")
    card = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".address-card")))
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".address-card .map.map-live")))
    # The person first: picture, name, how to reach them, and the address with its map, in one tall window.
    browser.set_window_size(1280, 1500)
    browser.execute_script("window.scrollTo(0, 0)")
    assert card.rect["y"] + card.rect["height"] < browser.execute_script("return window.innerHeight"), card.rect
    browser.save_screenshot(str(DOCS / "desktop-contact.png"))
    browser.set_window_size(1280, 900)

    # A phone's size, as its browser lays pages out (a window cannot be made that narrow).
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    basemap_only(phone)
    log_in(phone, server, lived_in_account)
    phone.execute_script("localStorage.removeItem('locify-last-position')")
    phone.get(server.url + "/map")
    wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#home-map .map-marker, #home-map .map-cluster"))
    phone.save_screenshot(str(DOCS / "phone-map.png"))
    phone.get(server.url + "/contacts")
    phone.save_screenshot(str(DOCS / "phone-contacts.png"))

    # The README shows exactly these, and each is the size of its window.
    readme = (ROOT / "README.md").read_text()
    linked = sorted(set(re.findall(r"docs/screenshots/([\w-]+\.png)", readme)))
    assert linked == sorted(SHOTS), linked
    assert png_width(DOCS / "desktop-contact.png") >= 1000
    assert png_width(DOCS / "phone-map.png") < 600 and png_width(DOCS / "phone-contacts.png") < 600
