"""The web app in a real headless Chromium: the path a new user takes, screenshot by screenshot."""
import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from conftest import (assert_no_console_errors, click_and_wait_for_page, fill, mark_page, shot, submit, wait,
                      wait_for_next_page)

EMAIL = "grace@example.com"
PASSWORD = "compilers are fun"


def test_a_new_user_manages_contacts(server, browser, screens):
    # Register, in a browser set to Paris time: the account starts in the browser's timezone.
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Paris"})
    browser.get(server.url + "/register")
    assert browser.find_element(By.ID, "timezone").get_attribute("value") == "Europe/Paris"
    shot(browser, screens, "01-register")
    fill(browser, "name", "Grace Hopper")
    fill(browser, "email", EMAIL)
    fill(browser, "password", "short")
    submit(browser)
    error = browser.find_element(By.ID, "password-error")
    assert error.text == "Password must be at least 8 characters."
    assert browser.find_element(By.ID, "email").get_attribute("value") == EMAIL, "typed values are kept"
    shot(browser, screens, "02-register-error")
    fill(browser, "password", PASSWORD)
    submit(browser)
    # Signed in, a new account starts on the ways to begin.
    wait(browser).until(EC.url_contains("/start"))
    assert "Welcome to Locify!" in browser.page_source
    assert browser.find_element(By.TAG_NAME, "h1").text == "Welcome, Grace"
    assert "Your timezone is Europe/Paris" in browser.page_source
    assert [link.text for link in browser.find_elements(By.CSS_SELECTOR, ".start-steps .button")] == [
        "Import contacts", "Import places", "Add a contact", "See how"]
    shot(browser, screens, "02-start")
    browser.get(server.url + "/contacts")
    empty = browser.find_element(By.CSS_SELECTOR, "p.empty")
    assert empty.text == ("No contacts yet. Add the first one, import them from your phone or another app, or fill the "
                          "account with sample data to look around."), empty.text

    # Settings offer the device's timezone where it differs from the account's.
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    browser.get(server.url + "/settings")
    use = browser.find_element(By.CSS_SELECTOR, ".timezone-offer button")
    assert use.text == "Use Asia/Tokyo"
    assert browser.find_element(By.ID, "timezone").get_attribute("value") == "Europe/Paris"
    use.click()
    assert browser.find_element(By.ID, "timezone").get_attribute("value") == "Asia/Tokyo"
    assert browser.switch_to.active_element.get_attribute("id") == "timezone"
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Paris"})

    # A lived-in account in one press: the empty account's start page offers the sample data.
    browser.get(server.url + "/contacts")
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "fill the account with sample data"))
    assert browser.current_url.endswith("/start#sample-data")
    click_and_wait_for_page(browser, browser.find_element(By.XPATH, "//button[text()='Fill with sample data']"))
    wait(browser).until(EC.url_contains("/map"))
    flash = browser.find_element(By.CSS_SELECTOR, ".flash").text
    assert flash.startswith("Added 12 sample contacts with 10 addresses, 9 phone numbers"), flash
    assert "and 14 saved places" in flash, flash
    # The map shows them: saved places and the people's addresses, in several countries.
    summary = browser.find_element(By.CSS_SELECTOR, "main .summary").text
    assert summary.startswith("14 places and 10 contact addresses."), summary
    shot(browser, screens, "03-sample-data-map")
    # Offered once: a filled account is offered its removal instead.
    browser.get(server.url + "/start")
    assert browser.find_elements(By.XPATH, "//button[text()='Fill with sample data']") == []
    assert browser.find_element(By.XPATH, "//button[text()='Remove sample data']").is_displayed()

    # Log out, then log in again
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, ".logout button"))
    wait(browser).until(EC.url_contains("/login"))
    fill(browser, "email", EMAIL)
    fill(browser, "password", "wrong password")
    submit(browser)
    assert "Email or password is not correct." in browser.find_element(By.CSS_SELECTOR, ".form-error").text
    fill(browser, "password", PASSWORD)
    shot(browser, screens, "03-login")
    submit(browser)
    wait(browser).until(EC.url_contains("/map"))
    browser.get(server.url + "/contacts")
    assert "12 contacts" in browser.find_element(By.ID, "contacts-summary").text
    shot(browser, screens, "04-contacts-seeded")

    # Create a contact
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "Add contact"))
    wait(browser).until(EC.presence_of_element_located((By.ID, "first_name")))
    submit(browser)
    assert browser.find_element(By.ID, "first_name-error").text == "First name is required."
    fill(browser, "first_name", "Marie")
    fill(browser, "last_name", "Curie")
    fill(browser, "email", "marie@example.fr")
    fill(browser, "birthdate_day", "7")
    browser.find_element(By.CSS_SELECTOR, "#birthdate_month option[value='11']").click()
    fill(browser, "birthdate_year", "1867")
    fill(browser, "description", "Physicist and chemist.")
    shot(browser, screens, "05-contact-form")
    submit(browser)
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".contact-detail")))
    assert "Marie Curie was added." in browser.page_source
    assert "7 November 1867" in browser.page_source
    shot(browser, screens, "06-contact-detail")
    detail_url = browser.current_url

    # Find it by search (accents and case ignored)
    browser.get(server.url + "/contacts")
    fill(browser, "q", "CURIE")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.search button"))
    wait(browser).until(EC.url_contains("q=CURIE"))
    names = [element.text for element in browser.find_elements(By.CSS_SELECTOR, ".contact-name")]
    assert names == ["Marie Curie"], names
    shot(browser, screens, "07-search")
    fill(browser, "q", "amelie")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.search button"))
    wait(browser).until(EC.url_contains("q=amelie"))
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".contact-name")][0].startswith("Amélie Laurent")

    # Edit it
    browser.get(detail_url)
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "Edit"))
    wait(browser).until(EC.presence_of_element_located((By.ID, "last_name")))
    fill(browser, "last_name", "Skłodowska-Curie")
    browser.find_element(By.ID, "is_starred").click()
    shot(browser, screens, "08-edit")
    submit(browser)
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".contact-detail")))
    assert "Marie Skłodowska-Curie" in browser.find_element(By.TAG_NAME, "h1").text
    shot(browser, screens, "09-edited")

    # Delete it through the confirmation dialog
    browser.find_element(By.LINK_TEXT, "Delete").click()
    dialog = browser.find_element(By.ID, "delete-dialog")
    wait(browser).until(lambda _: dialog.get_attribute("open") is not None)
    shot(browser, screens, "10-delete-dialog")
    click_and_wait_for_page(browser, dialog.find_element(By.ID, "confirm-delete"))
    wait(browser).until(EC.url_to_be(server.url + "/contacts"))
    assert "Marie Skłodowska-Curie was deleted." in browser.page_source
    assert "12 contacts" in browser.find_element(By.ID, "contacts-summary").text
    shot(browser, screens, "11-after-delete")

    # Settings: a token made in the browser works on the API
    browser.get(server.url + "/settings")
    fill(browser, "label", "Browser test")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "form.inline-form button"))
    token = browser.find_element(By.ID, "new-token-value").get_attribute("value")
    assert len(token) >= 40
    shot(browser, screens, "12-settings-token")
    request = urllib.request.Request(server.url + "/api/contacts?query=kwame", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        body = json.load(response)
    assert [contact["complete_name"] for contact in body["data"]] == ["Kwame Mensah"]

    browser.get(server.url + "/about")
    assert "GeoNames" in browser.page_source
    shot(browser, screens, "13-about")

    # The sample data goes in one press, and only it: a contact the person added stays.
    browser.get(server.url + "/contacts/new")
    fill(browser, "first_name", "Ada")
    submit(browser)
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".contact-detail")))
    browser.get(server.url + "/settings")
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "Start here"))
    click_and_wait_for_page(browser, browser.find_element(By.XPATH, "//button[text()='Remove sample data']"))
    assert browser.find_element(By.CSS_SELECTOR, ".flash").text == "Removed 12 sample contacts and 14 sample places."
    # Not empty (Ada is there), so nothing more is offered.
    assert browser.find_elements(By.CSS_SELECTOR, "#sample-data") == []
    browser.get(server.url + "/contacts")
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".contact-name")] == ["Ada"]
    browser.get(server.url + "/places")
    assert browser.find_element(By.CSS_SELECTOR, "main .summary").text.startswith("0 places in 4 categories"), \
        "the categories stay: the person may have renamed or filled them"
    assert_no_console_errors(browser)


def test_pages_fit_a_phone(server, phone, signed_in_phone, screens):
    for path, name in [("/contacts", "phone-contacts"), ("/contacts/new", "phone-form"), ("/settings", "phone-settings"),
                       ("/map", "phone-map"), ("/places", "phone-places"), ("/places/new?q=Lyon", "phone-add-place"),
                       ("/settings/places", "phone-places-import-export"), ("/settings/feedback", "phone-feedback")]:
        phone.get(server.url + path)
        overflow = phone.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px on a 360px phone"
        shot(phone, screens, name)
    assert_no_console_errors(phone)


def test_the_phone_navigation_is_a_tab_bar_within_reach(server, phone, signed_in_phone, screens):
    phone.get(server.url + "/contacts")
    bar = phone.find_element(By.CSS_SELECTOR, "nav.site-nav")
    viewport_height = phone.execute_script("return window.innerHeight")
    rect = bar.rect
    assert abs(rect["y"] + rect["height"] - viewport_height) <= 1, f"the tab bar sits at the bottom: {rect}"
    # About moves to the footer on a phone, leaving six sections.
    tabs = [tab for tab in bar.find_elements(By.CSS_SELECTOR, "a") if tab.is_displayed()]
    assert [tab.text for tab in tabs] == ["Contacts", "Map", "Places", "Reminders", "Inbox", "Settings"]
    assert phone.find_element(By.CSS_SELECTOR, ".site-footer a[href='/about']").is_displayed()
    for tab in tabs:
        assert tab.rect["height"] >= 44, f"{tab.text} is a comfortable touch target"
        assert tab.find_element(By.CSS_SELECTOR, "svg.icon").is_displayed()
        label = tab.find_element(By.CSS_SELECTOR, ".nav-label")
        assert phone.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", label), \
            f"{tab.text} is not cut short"
    assert tabs[0].get_attribute("aria-current") == "page"
    # The signed-in name stays in the header, on one line.
    header = phone.find_element(By.CSS_SELECTOR, ".site-header")
    assert signed_in_phone.name in header.find_element(By.CSS_SELECTOR, ".who").get_attribute("title")
    assert header.rect["height"] < 70, f"the header does not wrap: {header.rect}"
    # Six sections fit: the bar divides its width evenly, so each tab keeps at least 56 px.
    width = phone.execute_script("return window.innerWidth")
    assert min(tab.rect["width"] for tab in tabs) >= 56 and width / 6 >= 56
    # Keyboard: Tab reaches every section in order, and Enter follows the link.
    phone.find_element(By.TAG_NAME, "body").click()
    focused = []
    for _ in range(12):
        phone.switch_to.active_element.send_keys(Keys.TAB)
        element = phone.switch_to.active_element
        if element.get_attribute("href") and element.text in ("Contacts", "Map", "Settings", "About"):
            focused.append(element.text)
        if element.text == "Settings":
            break
    assert focused[:3] == ["Contacts", "Map", "Settings"], focused
    mark_page(phone)
    phone.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for_next_page(phone)
    assert phone.current_url.endswith("/settings")
    shot(phone, screens, "phone-tab-bar-settings")
    assert_no_console_errors(phone)
    # The current tab is not cut short either, even the longest ("Reminders").
    phone.get(server.url + "/reminders")
    current = phone.find_element(By.CSS_SELECTOR, "nav.site-nav a[aria-current='page']")
    assert current.text == "Reminders"
    label = current.find_element(By.CSS_SELECTOR, ".nav-label")
    assert phone.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", label), \
        "the current tab's label is cut short"


def test_the_desktop_navigation_is_a_header(server, browser, signed_in, screens):
    browser.get(server.url + "/settings")
    nav = browser.find_element(By.CSS_SELECTOR, "nav.site-nav")
    assert nav.rect["y"] < 40, "the sections are in the header on a desktop"
    current = nav.find_element(By.CSS_SELECTOR, "a[aria-current=page]")
    assert current.text == "Settings"
    assert signed_in.name == browser.find_element(By.CSS_SELECTOR, ".who").text
    assert_no_console_errors(browser)
