"""Places in a real browser, on a desktop and on a 360 px phone: a place added by searching a city (and one
by dropping a pin), made a favorite, its category deleted with the place moved elsewhere, the places
exported as GPX and imported back through the preview; the map home with its layers and clusters."""
import tempfile
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from conftest import assert_no_console_errors, click_and_wait_for_page, fill, shot, submit, unfold, wait


def assert_fits(driver):
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{driver.current_url} scrolls sideways by {overflow}px"


def add_place_by_searching_a_city(driver, server, screens, prefix):
    driver.get(server.url + "/places/new")
    fill(driver, "place-q", "Lyon")
    submit(driver, "form.place-search button[type=submit]")
    result = driver.find_element(By.CSS_SELECTOR, ".result-list a")
    assert result.text == "Lyon, France"
    click_and_wait_for_page(driver, result)
    # The chosen result fills the form and shows a static preview of the point.
    assert driver.find_element(By.ID, "name").get_attribute("value") == "Lyon"
    latitude = float(driver.find_element(By.ID, "latitude").get_attribute("value"))
    longitude = float(driver.find_element(By.ID, "longitude").get_attribute("value"))
    assert abs(latitude - 45.75) < 0.1 and abs(longitude - 4.85) < 0.1, (latitude, longitude)
    preview = driver.find_element(By.CSS_SELECTOR, "img.static-map")
    wait(driver).until(lambda _: driver.execute_script(
        "return arguments[0].complete && arguments[0].naturalWidth > 0", preview))
    assert_fits(driver)
    # Refused without a category, typed values kept.
    submit(driver, "form.place-form button.primary")
    assert driver.find_element(By.ID, "category_id-error").text == "Choose the category this place belongs to."
    assert driver.find_element(By.ID, "name").get_attribute("value") == "Lyon"
    # A new category, made with the place.
    fill(driver, "new_category", "Weekend trips")
    fill(driver, "notes", "Bouchons and traboules")
    shot(driver, screens, f"{prefix}-place-form")
    submit(driver, "form.place-form button.primary")
    assert driver.find_element(By.ID, "place-name").text == "Lyon"
    assert "“Lyon” was saved." in driver.find_element(By.CSS_SELECTOR, ".flash").text
    facts = driver.find_element(By.CSS_SELECTOR, ".facts").text
    assert "Weekend trips" in facts and "Bouchons and traboules" in facts
    return driver.current_url


def favorite_it(driver):
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, "button.favorite"))
    button = driver.find_element(By.CSS_SELECTOR, "button.favorite")
    assert button.get_attribute("aria-pressed") == "true" and "Favorite" in button.text


def delete_its_category_moving_it(driver, server, target):
    driver.get(server.url + "/places")
    favorites = driver.find_element(By.CSS_SELECTOR, ".category-favorites")
    assert "Favorites" in favorites.text and favorites.text.endswith("1"), favorites.text
    row = next(r for r in driver.find_elements(By.CSS_SELECTOR, ".category-list > li") if "Weekend trips" in r.text)
    click_and_wait_for_page(driver, unfold(driver, row.find_element(By.CSS_SELECTOR, "details.category-edit a[href$='/delete']")))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Delete the category “Weekend trips”?"
    # Refused until the receiving category is chosen.
    submit(driver, "main form button.danger")
    assert driver.find_element(By.ID, "move_to-error").text == "Choose the category that receives its places."
    Select(driver.find_element(By.ID, "move_to")).select_by_visible_text(target)
    submit(driver, "main form button.danger")
    flash = driver.find_element(By.CSS_SELECTOR, ".flash").text
    assert flash == f"The category “Weekend trips” was deleted. Its places are now in “{target}”.", flash
    names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".category-name")]
    assert "Weekend trips" not in names


def export_and_import_back(driver, server, downloads, place_url, category, screens, prefix):
    """Exports GPX (a real download), deletes the place, and imports the file back through the preview."""
    driver.get(server.url + "/settings/places")
    driver.find_element(By.ID, "format-gpx").click()
    button = driver.find_element(By.CSS_SELECTOR, ".export-form button[type=submit]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    # Chromium can show the file's name before the bytes are all in it: wait for the whole document.
    deadline = time.time() + 10
    files, gpx = [], ""
    while time.time() < deadline and not gpx.rstrip().endswith("</gpx>"):
        time.sleep(0.2)
        files = list(downloads.glob("locify-places-*.gpx"))
        gpx = files[0].read_text() if len(files) == 1 else ""
    assert len(files) == 1, list(downloads.iterdir())
    assert "<name>Lyon</name>" in gpx and f"<type>{category}</type>" in gpx, gpx

    # Delete the place, then import the file back: the preview first, then the import.
    driver.get(place_url)
    delete = driver.find_element(By.LINK_TEXT, "Delete")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", delete)
    delete.click()
    dialog = driver.find_element(By.ID, "delete-dialog")
    wait(driver).until(lambda _: dialog.get_attribute("open") is not None)
    click_and_wait_for_page(driver, dialog.find_element(By.ID, "confirm-delete"))
    assert "“Lyon” was deleted." in driver.find_element(By.CSS_SELECTOR, ".flash").text
    driver.get(server.url + "/settings/places")
    driver.find_element(By.ID, "places-file").send_keys(str(files[0]))
    submit(driver, "form[enctype] button.primary")
    assert driver.find_element(By.TAG_NAME, "h1").text.startswith("Import preview")
    summary = driver.find_element(By.CSS_SELECTOR, ".summary").text
    assert summary == "1 place would be created, 0 would be merged into places already saved, 0 skipped (GPX).", summary
    assert_fits(driver)
    shot(driver, screens, f"{prefix}-import-preview")
    driver.get(server.url + "/places/favorites")
    assert "0 places." in driver.find_element(By.ID, "places-summary").text, "a preview saves nothing"
    driver.back()
    submit(driver, "main form.actions button.primary")
    assert driver.find_element(By.CSS_SELECTOR, ".summary").text.startswith("Done: 1 place created")
    # Back as it was: a favorite in its category, found by searching its notes without accents.
    driver.get(server.url + "/places/favorites?q=TRABOULES")
    rows = driver.find_elements(By.CSS_SELECTOR, ".place-list li")
    assert [r.find_element(By.TAG_NAME, "strong").text for r in rows] == ["Lyon"]
    assert category in rows[0].text


def test_a_place_is_found_saved_favorited_moved_exported_and_imported_back(server, browser, signed_in, screens):
    downloads = Path(tempfile.mkdtemp(prefix="locify-downloads-"))
    browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    place_url = add_place_by_searching_a_city(browser, server, screens, "40")
    shot(browser, screens, "41-place")
    # Share and Navigate: the preferred app first, the others in a menu, the text ready to copy.
    directions = browser.find_element(By.PARTIAL_LINK_TEXT, "Directions in")
    assert "openstreetmap.org/directions" in directions.get_attribute("href")
    browser.find_element(By.CSS_SELECTOR, ".map-actions details.share summary").click()
    text = browser.find_element(By.ID, "place-share-text").get_attribute("value")
    assert text.startswith("Lyon\nLyon, France\n45.7") and "openstreetmap.org" in text, text
    # The place's map is live, centred on it.
    marker = browser.find_element(By.CSS_SELECTOR, "#place-map .map-marker-current")
    assert marker.get_attribute("aria-label") == "Lyon"
    favorite_it(browser)
    delete_its_category_moving_it(browser, server, "Tourist Attraction")
    shot(browser, screens, "42-categories")
    browser.get(place_url)
    assert "Tourist Attraction" in browser.find_element(By.CSS_SELECTOR, ".facts").text

    export_and_import_back(browser, server, downloads, place_url, "Tourist Attraction", screens, "43")
    assert_no_console_errors(browser)


def test_a_pin_dropped_on_the_map_becomes_a_place(server, browser, signed_in, screens):
    browser.get(server.url + "/places/new")
    latitude = browser.find_element(By.ID, "latitude")
    assert latitude.get_attribute("value") == ""
    pick_map = browser.find_element(By.ID, "place-pick-map")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", pick_map)
    pick_map.click()
    wait(browser).until(lambda _: latitude.get_attribute("value") != "")
    assert browser.find_element(By.CSS_SELECTOR, "#place-pick-map .map-pick").is_displayed()
    float(latitude.get_attribute("value"))
    float(browser.find_element(By.ID, "longitude").get_attribute("value"))
    # Typing a position moves the pin; saving keeps it.
    fill(browser, "latitude", "48.8584")
    fill(browser, "longitude", "2.2945")
    fill(browser, "name", "Tour Eiffel")
    Select(browser.find_element(By.ID, "category_id")).select_by_visible_text("Tourist Attraction")
    submit(browser, "form.place-form button.primary")
    assert browser.find_element(By.ID, "place-coordinates").text == "48.8584, 2.2945"
    assert_no_console_errors(browser)


def test_the_map_home_shows_places_and_contacts_in_layers(server, browser, signed_in, screens):
    # Twelve stalls 20 m apart in a row: clustered at the neighbourhood's zoom.
    for index in range(12):
        browser.get(server.url + f"/places/new?name=Stall%20{index}&lat={48.85 + index * 0.0002:.4f}&lon=2.35")
        Select(browser.find_element(By.ID, "category_id")).select_by_visible_text("Restaurant")
        submit(browser, "form.place-form button.primary")
    browser.get(server.url + "/")
    wait(browser).until(EC.url_contains("/map"))
    home = browser.find_element(By.ID, "home-map")
    # The browser's position (central Paris) centres the map; the stalls are a few hundred metres away.
    # Markers and clusters are redrawn as the map moves, so they are read fresh each time, by script.
    visible = """
        const map = arguments[0], box = map.getBoundingClientRect();
        return [...map.querySelectorAll(arguments[1])].filter((e) => {
          const r = e.getBoundingClientRect();
          return !e.hidden && r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom;
        });"""

    def shown(selector):
        return browser.execute_script(visible, home, selector)

    wait(browser).until(lambda _: shown(".map-cluster"))
    clusters = [int(c.text) for c in shown(".map-cluster")]
    single = len(shown(".map-marker-places"))
    assert sum(clusters) + single == 12, (clusters, single)
    shot(browser, screens, "44-map-home")
    # The contacts' layer switches off in place, and back on.
    toggle = browser.find_element(By.ID, "layer-contacts")
    assert toggle.is_displayed() and toggle.is_selected()
    assert not browser.find_element(By.CSS_SELECTOR, "[data-layer-fallback]").is_displayed()
    toggle.click()
    assert not shown(".map-marker-contacts")
    toggle.click()
    # Pressing a cluster zooms in: it comes apart into smaller clusters and single places, all in view.
    biggest = max(shown(".map-cluster"), key=lambda c: int(c.text))
    size = int(biggest.text)
    biggest.click()

    def came_apart(_):
        parts = [int(c.text) for c in shown(".map-cluster")]
        return max(parts, default=1) < size and sum(parts) + len(shown(".map-marker-places")) >= size

    wait(browser).until(came_apart)
    # What goes out of view is out of reach: no tabbing to a pin one cannot see; nothing in view crowds another.
    for _ in range(3):
        home.find_element(By.CSS_SELECTOR, ".map-zoom-in").click()
    reach = browser.execute_script("""
        const box = arguments[0].getBoundingClientRect();
        return [...arguments[0].querySelectorAll('.map-marker:not([hidden]), .map-cluster')].map((e) => {
          const r = e.getBoundingClientRect();
          const outside = Math.max(box.left - r.right, r.left - box.right, box.top - r.bottom, r.top - box.bottom);
          return [outside, getComputedStyle(e).visibility, r.left + r.width / 2, r.bottom];
        });""", home)
    far = [visibility for outside, visibility, _, _ in reach if outside > 60]
    assert far and set(far) == {"hidden"}, reach
    in_view = shown(".map-marker, .map-cluster")
    assert all(e.value_of_css_property("visibility") == "visible" for e in in_view)
    centres = [(x, y) for outside, _, x, y in reach if outside < 0]
    assert all(abs(a[0] - b[0]) >= 24 or abs(a[1] - b[1]) >= 24 for i, a in enumerate(centres) for b in centres[i + 1:]), \
        centres
    for _ in range(3):
        home.find_element(By.CSS_SELECTOR, ".map-zoom-out").click()
    # A search over the places, the contacts' addresses and the geocoder.
    fill(browser, "map-q", "stall 1")
    submit(browser, "form.map-search button[type=submit]")
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".result-list > li strong")]
    # Ranked nearest first from where the browser is: the stalls stand in a line going north, towards it.
    assert names[:3] == ["Stall 11", "Stall 10", "Stall 1"], names
    # Map first: the results are highlighted on it, numbered as the sheet under it numbers them, all in view.
    home = browser.find_element(By.ID, "home-map")
    assert browser.execute_script(
        "return !!(arguments[0].compareDocumentPosition(document.querySelector('.search-results'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING)", home), "the results are a sheet under the map"
    wait(browser).until(lambda _: len(shown(".map-marker-results")) == len(names))
    labels = [marker.get_attribute("aria-label") for marker in home.find_elements(By.CSS_SELECTOR, ".map-marker-results")]
    assert labels[0] == "1. Stall 11", labels
    shot(browser, screens, "45-map-search-results")
    # Tapping the map opens that point, to save it.
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", home)
    browser.execute_script(
        "const m = arguments[0]; const r = m.getBoundingClientRect();"
        "for (const type of ['pointerdown', 'pointerup']) m.dispatchEvent(new PointerEvent(type, {bubbles: true,"
        " pointerId: 1, clientX: r.left + 20, clientY: r.bottom - 40, isPrimary: true}));", home)
    popup = home.find_element(By.CSS_SELECTOR, ".map-popup")
    wait(browser).until(lambda _: popup.is_displayed())
    save = popup.find_element(By.LINK_TEXT, "Save as a place")
    assert "/places/new?lat=" in save.get_attribute("href")
    click_and_wait_for_page(browser, popup.find_element(By.LINK_TEXT, "Details, share and directions"))
    assert browser.find_element(By.CSS_SELECTOR, "img.static-map").is_displayed()
    assert_no_console_errors(browser)


def test_places_on_a_phone(server, phone, signed_in_phone, screens):
    downloads = Path(tempfile.mkdtemp(prefix="locify-downloads-"))
    phone.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    place_url = add_place_by_searching_a_city(phone, server, screens, "phone")
    assert_fits(phone)
    shot(phone, screens, "phone-place")
    favorite_it(phone)
    delete_its_category_moving_it(phone, server, "Other")
    assert_fits(phone)
    shot(phone, screens, "phone-categories")
    phone.get(place_url)
    assert "Other" in phone.find_element(By.CSS_SELECTOR, ".facts").text
    phone.get(server.url + "/places/favorites?near=Lyon&within_km=10&sort=distance")
    assert phone.find_element(By.ID, "places-summary").text == "1 place within 10 km of Lyon."
    assert_fits(phone)
    export_and_import_back(phone, server, downloads, place_url, "Other", screens, "phone")
    assert_no_console_errors(phone)


def test_a_category_is_shared_with_a_friend_and_through_a_public_link(server, browser, phone, lived_in_account):
    """The owner shares a category on the desktop (by e-mail, able to edit) and makes its public link; the friend,
    on a phone, finds it under "Shared with you", opens a place, comments on it and leaves; the public page shows
    the places to anyone. Each page passes axe and fits the phone."""
    import uuid
    from conftest import Account, log_in
    from test_accessibility import violations
    friend = Account(name="Rob Friend", email=f"rob-{uuid.uuid4().hex[:10]}@example.com", password="shared places")
    server.cli("user", "create", "--email", friend.email, "--name", friend.name, "--password", friend.password)
    log_in(browser, server, lived_in_account)
    browser.get(server.url + "/places")
    category = browser.find_element(By.CSS_SELECTOR, ".category-list li:not(.category-favorites) a.category-link")
    name = category.find_element(By.CSS_SELECTOR, ".category-name").text
    browser.get(category.get_attribute("href") + "/sharing")
    assert violations(browser) == []
    fill(browser, "email", "nobody@example.com")
    submit(browser, "form[aria-labelledby=invite-heading] button[type=submit]")
    assert "No account on this server uses nobody@example.com" in browser.find_element(By.ID, "email-error").text
    fill(browser, "email", friend.email.upper())
    Select(browser.find_element(By.ID, "access")).select_by_value("edit")
    submit(browser, "form[aria-labelledby=invite-heading] button[type=submit]")
    assert f"{friend.email}, can edit" in browser.find_element(By.CSS_SELECTOR, ".share-list").text
    submit(browser, "form[action$='/sharing/link'] button[type=submit]")
    public_url = browser.find_element(By.ID, "public_link").get_attribute("value")
    assert "/shared/" in public_url
    assert violations(browser) == []

    log_in(phone, server, friend)
    phone.get(server.url + "/places")
    shared = phone.find_element(By.CSS_SELECTOR, "ul[aria-labelledby=shared]")
    assert f"shared by {lived_in_account.name}, you can edit" in shared.text
    click_and_wait_for_page(phone, shared.find_element(By.CSS_SELECTOR, "a.category-link"))
    assert f"Shared with you by {lived_in_account.name}" in phone.find_element(By.CSS_SELECTOR, ".shared-note").text
    assert violations(phone) == []
    assert_fits(phone)
    click_and_wait_for_page(phone, phone.find_element(By.CSS_SELECTOR, ".place-list a"))
    assert phone.find_element(By.LINK_TEXT, "Edit").is_displayed(), "an editor edits"
    fill(phone, "new-comment", "Rob was here")
    submit(phone, "form[action$='/comments'] button[type=submit]")
    assert "Rob was here" in phone.find_element(By.ID, "comments").text
    assert violations(phone) == []
    assert_fits(phone)

    phone.get(public_url)
    assert phone.find_element(By.ID, "public-heading").text == name
    assert phone.find_elements(By.CSS_SELECTOR, ".place-list li"), "its places are listed"
    assert phone.find_element(By.ID, "places-map").is_displayed()
    assert violations(phone) == []
    assert_fits(phone)

    phone.get(server.url + "/places")
    submit(phone, "ul[aria-labelledby=shared] form button[type=submit]")
    assert f"You left “{name}”" in phone.find_element(By.CSS_SELECTOR, ".flash").text
    assert not phone.find_elements(By.CSS_SELECTOR, "ul[aria-labelledby=shared]")
    submit(browser, "form[action$='/sharing/link/revoke'] button[type=submit]")
    phone.get(public_url)
    assert "Not found" in phone.title or "not found" in phone.page_source.lower()
    assert_no_console_errors(browser)
