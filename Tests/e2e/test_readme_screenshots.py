"""The README's screenshots, made by the browser suite so they show the product as it is today: a lived-in
account (the demo contacts, a few of them with their addresses, places saved in Lyon, a reminder for
today), a contact's page on a desktop, and the map and the contact list on a phone. They are written to
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

HOMES = {
    "Amélie": {"street": "12 rue Mercière", "city": "Lyon", "postal_code": "69002", "country": "FR",
               "latitude": 45.7622, "longitude": 4.8327},
    "Jonas": {"street": "Oranienstraße 25", "city": "Berlin", "postal_code": "10999", "country": "DE",
              "latitude": 52.5011, "longitude": 13.4187},
    "Priya": {"street": "12 Church Street", "city": "Bengaluru", "postal_code": "560001", "country": "IN",
              "latitude": 12.9752, "longitude": 77.6040},
    "Lena": {"street": "Götgatan 10", "city": "Stockholm", "postal_code": "11646", "country": "SE",
             "latitude": 59.3178, "longitude": 18.0718},
    "Kwame": {"street": "8 Rue de la République", "city": "Lyon", "postal_code": "69001", "country": "FR",
              "latitude": 45.7640, "longitude": 4.8357},
}
PLACES = [("Les Halles Paul Bocuse", 45.7628, 4.8506, "Restaurant", True), ("Café Mokxa", 45.7588, 4.8336, "Cafe", True),
          ("Basilique de Fourvière", 45.7623, 4.8227, "Tourist Attraction", False),
          ("Parc de la Tête d'Or", 45.7772, 4.8520, "Other", False)]


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


def test_the_readme_screenshots_show_the_product_as_it_is(server, browser, phone, account):
    token = server.cli("token", "create", "--email", account.email, "--name", "screens").strip().splitlines()[-1]
    contacts = api(server, token, "GET", "/api/contacts?limit=100")["data"]
    by_name = {contact["first_name"]: contact for contact in contacts}
    for name, home in HOMES.items():
        api(server, token, "POST", "/api/addresses", {"contact_id": by_name[name]["id"], "name": "Home", **home})
    categories = {c["name"]: c["id"] for c in api(server, token, "GET", "/api/categories")["data"]}
    for name, lat, lon, category, favorite in PLACES:
        api(server, token, "POST", "/api/places",
            {"name": name, "latitude": lat, "longitude": lon, "category_id": categories[category], "is_favorite": favorite})
    api(server, token, "POST", "/api/reminders", {
        "contact_id": by_name["Amélie"]["id"], "title": "Ask about the climbing trip",
        "initial_date": datetime.date.today().isoformat(), "frequency_type": "one_time"})
    DOCS.mkdir(parents=True, exist_ok=True)

    basemap_only(browser)
    log_in(browser, server, account)
    # Initials rather than the test Gravatar stand-in's pictures.
    browser.get(server.url + "/settings")
    look_up = browser.find_element(By.ID, "gravatar-look-up")
    if look_up.is_selected():
        look_up.click()
        click_and_wait_for_page(browser, look_up.find_element(By.XPATH, "ancestor::form//button[@type='submit']"))
    browser.get(f"{server.url}/contacts/{by_name['Amélie']['id']}")
    card = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".address-card")))
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".address-card .map.map-live")))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", card)
    browser.save_screenshot(str(DOCS / "desktop-contact.png"))

    # A phone's size, as its browser lays pages out (a window cannot be made that narrow).
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    basemap_only(phone)
    log_in(phone, server, account)
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
