"""The web app in a real headless Chromium: the path a new user takes, screenshot by screenshot."""
import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

EMAIL = "grace@example.com"
PASSWORD = "compilers are fun"


def wait(driver):
    return WebDriverWait(driver, 10)


def fill(driver, field_id, value):
    element = driver.find_element(By.ID, field_id)
    element.clear()
    element.send_keys(value)


def submit(driver, form_selector="main form button[type=submit]"):
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, form_selector))


def click_and_wait_for_page(driver, element):
    # A click returns before the browser has the answer; without this wait a slow server (a bcrypt check
    # on a busy CI machine) leaves the next look-up reading the page that was just submitted.
    old_page = driver.find_element(By.TAG_NAME, "html")
    element.click()
    wait(driver).until(EC.staleness_of(old_page))


def shot(driver, screens, name):
    driver.save_screenshot(str(screens / f"{name}.png"))


def assert_no_console_errors(driver):
    # A form answered with its errors (422) or a refused log-in (401) is the page working as designed.
    expected = ("status of 422", "status of 401")
    errors = [entry for entry in driver.get_log("browser")
              if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in expected)]
    assert errors == [], errors


def test_a_new_user_manages_contacts(server, browser, screens):
    # Register
    browser.get(server.url + "/register")
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
    wait(browser).until(EC.url_contains("/contacts"))
    assert "Welcome to Locify!" in browser.page_source

    # A lived-in account: the demo seed adds a dozen people.
    assert "Added 12 sample contacts" in server.cli("seed", "--demo", "--email", EMAIL)

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
    wait(browser).until(EC.url_contains("/contacts"))
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
    assert_no_console_errors(browser)


def test_pages_fit_a_phone(server, phone, screens):
    token = server.cli("token", "create", "--email", EMAIL, "--name", "phone check").strip().splitlines()[-1]
    assert len(token) >= 40
    phone.get(server.url + "/login")
    fill(phone, "email", EMAIL)
    fill(phone, "password", PASSWORD)
    submit(phone)
    WebDriverWait(phone, 10).until(EC.url_contains("/contacts"))
    for path, name in [("/contacts", "phone-contacts"), ("/contacts/new", "phone-form"), ("/settings", "phone-settings")]:
        phone.get(server.url + path)
        overflow = phone.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px on a 360px phone"
        shot(phone, screens, name)
    assert_no_console_errors(phone)
