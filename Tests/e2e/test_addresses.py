"""Addresses on the contact page, in a real browser: add one laid out for its country, copy and share it,
edit it, delete it, and the form on a phone."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from conftest import assert_no_console_errors, click_and_wait_for_page, fill, shot, submit, wait


def open_first_contact(driver, server):
    driver.get(server.url + "/contacts")
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, ".contact-row"))
    return driver.find_element(By.TAG_NAME, "h1").text


def test_an_address_is_added_shared_edited_and_deleted(server, browser, signed_in, screens):
    name = open_first_contact(browser, server)
    contact_url = browser.current_url
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "Add an address"))
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("New address for")

    # Choosing a country relabels the fields at once, without leaving the page.
    form_page = browser.find_element(By.TAG_NAME, "html")
    # The country is found by typing part of its name (accents and case ignored).
    fill(browser, "country-filter", "united st")
    # (The list is hidden behind its combobox, so its option is read by its text content.)
    assert Select(browser.find_element(By.ID, "country")).first_selected_option.get_attribute("textContent") == "United States"
    wait(browser).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "label[for=postal_code]"), "ZIP code"))
    assert browser.find_element(By.CSS_SELECTOR, "label[for=province]").text == "State"
    assert browser.find_element(By.TAG_NAME, "html") == form_page, "the page was not reloaded"
    assert not browser.find_element(By.CSS_SELECTOR, "[data-refresh-fields]").is_displayed()
    fill(browser, "name", "Home")
    fill(browser, "street", "1600 Amphitheatre Pkwy")
    fill(browser, "city", "Mountain View")
    fill(browser, "province", "CA")
    fill(browser, "postal_code", "9404")
    shot(browser, screens, "20-address-form")
    submit(browser, "form.address-form button.primary")
    assert browser.find_element(By.ID, "postal_code-error").text == "ZIP codes in the United States look like 95014."
    assert browser.find_element(By.ID, "city").get_attribute("value") == "Mountain View", "typed values are kept"
    fill(browser, "postal_code", "94043")
    submit(browser, "form.address-form button.primary")
    wait(browser).until(EC.url_to_be(contact_url))
    assert "The address was added." in browser.page_source

    card = browser.find_element(By.CSS_SELECTOR, ".address-card")
    assert card.find_element(By.TAG_NAME, "h3").text == "Home"
    lines = card.find_element(By.CSS_SELECTOR, "address").text.splitlines()
    # On screen as typed; the copied text keeps the postal form ("MOUNTAIN VIEW" is for envelopes).
    assert lines == ["1600 Amphitheatre Pkwy", "Mountain View, CA 94043", "United States"], lines
    directions = card.find_element(By.PARTIAL_LINK_TEXT, "Directions in")
    assert "openstreetmap.org" in directions.get_attribute("href")
    card.find_element(By.CSS_SELECTOR, "details.menu summary").click()
    google = card.find_element(By.LINK_TEXT, "Google Maps")
    assert google.get_attribute("href").startswith("https://www.google.com/maps/dir/?api=1&destination=")
    shot(browser, screens, "21-address-card")

    # Copy: the text is there to select, and the button says what happened.
    share = card.find_element(By.CSS_SELECTOR, "details.share")
    share.find_element(By.TAG_NAME, "summary").click()
    text = share.find_element(By.CSS_SELECTOR, "textarea.share-text")
    assert text.get_attribute("readonly") is not None
    assert "MOUNTAIN VIEW, CA 94043" in text.get_attribute("value")
    copy = share.find_element(By.CSS_SELECTOR, "[data-copy-from]")
    assert copy.is_displayed(), "the Copy button shows where the clipboard is available"
    copy.click()
    status = share.find_element(By.CSS_SELECTOR, ".copied")
    wait(browser).until(lambda _: status.text != "")
    assert status.text in ("Copied to the clipboard.", "Copying was not allowed; select the text above instead.")
    vcard = share.find_element(By.LINK_TEXT, "vCard").get_attribute("href")
    assert vcard.endswith("/vcard")
    geo = share.find_element(By.LINK_TEXT, "geo: link").get_attribute("href")
    assert geo.startswith("geo:")
    shot(browser, screens, "22-address-share")

    # The geocoder runs in the background: the address is placed (city precision) shortly after.
    for _ in range(20):
        browser.get(contact_url)
        if "Finding this address on the map" not in browser.page_source:
            break
        time.sleep(0.5)
    assert "could not be found" not in browser.page_source

    # The placed address has a map: tiles from the proxy where the tile server has them, the basemap's
    # where it does not, and the marker.
    preview = browser.find_element(By.CSS_SELECTOR, ".address-card .map")
    wait(browser).until(lambda _: "map-live" in preview.get_attribute("class"))
    tiles = preview.find_elements(By.CSS_SELECTOR, "img.map-tile")
    assert tiles, "the map drew tiles"
    wait(browser).until(lambda _: all(browser.execute_script("return arguments[0].complete", img) for img in tiles))
    sources = [img.get_attribute("src") for img in tiles]
    assert any("/maps/tiles/" in src for src in sources), sources
    assert any("/maps/basemap/" in src for src in sources), "missing tiles fall back to the basemap"
    assert all(browser.execute_script("return arguments[0].naturalWidth", img) > 0 for img in tiles), "no broken tiles"
    # Where the street map is missing, the map says so rather than showing an empty box.
    notice = preview.find_element(By.CSS_SELECTOR, ".map-notice")
    wait(browser).until(lambda _: notice.is_displayed())
    assert notice.text == "Street map unavailable — showing cities"
    # The bundled gazetteer knows Mountain View, not the street: the pin looks approximate (a circle over
    # the city, said "around Mountain View"), and directions go by the address text, not the city's centre.
    card = browser.find_element(By.CSS_SELECTOR, ".address-card")
    assert "The map knows this address only around Mountain View" in card.text, card.text
    assert card.find_element(By.LINK_TEXT, "Place the pin yourself")
    marker = preview.find_element(By.CSS_SELECTOR, "button.map-marker.map-marker-approximate")
    assert marker.get_attribute("aria-label") == "Home, around Mountain View"
    circle = preview.find_element(By.CSS_SELECTOR, ".map-circle")
    assert circle.is_displayed() and circle.size["width"] > 100, circle.size
    directions = card.find_element(By.PARTIAL_LINK_TEXT, "Directions in").get_attribute("href")
    assert "1600%20Amphitheatre%20Pkwy" in directions, directions
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", preview)
    shot(browser, screens, "23-address-approximate")
    zoom_in = preview.find_element(By.CSS_SELECTOR, ".map-zoom-in")
    zoom_in.click()
    shot(browser, screens, "24-address-map")
    full = browser.find_element(By.CSS_SELECTOR, "[data-map-fullscreen]")
    full.click()
    assert "map-fullscreen" in preview.get_attribute("class")
    close = preview.find_element(By.CSS_SELECTOR, ".map-close")
    assert browser.switch_to.active_element == close, "focus moves into the full-screen map"
    shot(browser, screens, "25-address-map-fullscreen")
    close.send_keys(Keys.ESCAPE)
    assert "map-fullscreen" not in preview.get_attribute("class")
    assert browser.switch_to.active_element == full, "Escape returns to where the person was"

    # The Map page shows every placed address. Where the browser may not tell the person's position (and
    # Locify remembers none from before: signing in opened the map, which kept it), the map opens on
    # what there is to show.
    browser.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "denied"})
    browser.execute_script("localStorage.removeItem('locify-last-position')")
    browser.get(server.url + "/map")
    overview = browser.find_element(By.CSS_SELECTOR, ".map")
    wait(browser).until(lambda _: overview.find_elements(By.CSS_SELECTOR, "button.map-marker"))
    overview.find_element(By.CSS_SELECTOR, "button.map-marker").click()
    popup = overview.find_element(By.CSS_SELECTOR, ".map-popup")
    assert popup.is_displayed()
    assert "Home" in popup.text
    shot(browser, screens, "26-map-page")
    browser.get(contact_url)

    # Edit
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, ".address-card").find_element(By.LINK_TEXT, "Edit"))
    fill(browser, "name", "Work")
    submit(browser, "form.address-form button.primary")
    wait(browser).until(EC.url_to_be(contact_url))
    assert browser.find_element(By.CSS_SELECTOR, ".address-card h3").text == "Work"

    # Delete asks first
    card = browser.find_element(By.CSS_SELECTOR, ".address-card")
    card.find_element(By.LINK_TEXT, "Delete").click()
    dialog = card.find_element(By.TAG_NAME, "dialog")
    wait(browser).until(lambda _: dialog.is_displayed())
    shot(browser, screens, "23-address-delete")
    click_and_wait_for_page(browser, dialog.find_element(By.CSS_SELECTOR, "button.danger"))
    assert "The address was deleted." in browser.page_source
    assert "No addresses yet." in browser.page_source
    assert browser.find_element(By.TAG_NAME, "h1").text == name, "back on the same contact"
    assert_no_console_errors(browser)


def test_the_address_form_fits_a_phone(server, phone, signed_in_phone, screens):
    open_first_contact(phone, server)
    click_and_wait_for_page(phone, phone.find_element(By.LINK_TEXT, "Add an address"))
    fill(phone, "country-filter", "Japan")
    wait(phone).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "label[for=province]"), "Prefecture"))
    overflow = phone.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the address form scrolls sideways by {overflow}px on a 360px phone"
    shot(phone, screens, "phone-address-form")
    assert_no_console_errors(phone)
