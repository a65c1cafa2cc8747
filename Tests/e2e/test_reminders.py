"""Reminders in a real browser: a monthly reminder added from a contact's page, seen on the timeline and
the contact page, and told in the app when its time of day comes."""
import time
from datetime import datetime, timezone

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import assert_no_console_errors, click_and_wait_for_page, fill, shot, submit


NOTIFICATION_RECORDER = """
(() => {
  const store = (key, value) => sessionStorage.setItem(key, value);
  class RecordedNotification {
    constructor(title) {
      const shown = JSON.parse(sessionStorage.getItem('shown') || '[]');
      shown.push(title);
      store('shown', JSON.stringify(shown));
    }
    static get permission() { return sessionStorage.getItem('asked') ? 'granted' : 'default'; }
    static requestPermission() { store('asked', 'yes'); return Promise.resolve('granted'); }
  }
  window.Notification = RecordedNotification;
})();
"""


def set_value(driver, field_id, value):
    # Date and time inputs take their value in the browser's locale when typed; set it as the form sends it.
    driver.execute_script(
        "const input = document.getElementById(arguments[0]); input.value = arguments[1];"
        "input.dispatchEvent(new Event('change', {bubbles: true}));", field_id, value)


def test_a_monthly_reminder_reaches_the_timeline_and_the_notifications(server, browser, signed_in, screens):
    # Browser notifications are offered, and asked for only on "Enable". The browser's Notification is
    # replaced by a recorder (headless Chromium shows none), kept in sessionStorage across pages.
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NOTIFICATION_RECORDER})
    browser.get(server.url + "/notifications")
    assert "No notifications yet." in browser.page_source
    offer = browser.find_element(By.CSS_SELECTOR, "[data-browser-notifications]")
    assert offer.is_displayed()
    assert browser.execute_script("return sessionStorage.getItem('asked')") is None, "not asked before Enable"
    browser.find_element(By.CSS_SELECTOR, "[data-enable-notifications]").click()
    status = browser.find_element(By.CSS_SELECTOR, "[data-notification-status]")
    assert "Browser notifications are on" in status.text, status.text
    assert browser.execute_script("return sessionStorage.getItem('asked')") == "yes"

    # Notifications go out at the time of day: midnight, so whatever is due today is past its moment.
    browser.get(server.url + "/settings/notifications")
    set_value(browser, "time_of_day", "00:00")
    submit(browser, "main form button.primary")
    assert "Your notification settings were saved." in browser.page_source
    shot(browser, screens, "32-notification-settings")

    browser.get(server.url + "/contacts")
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, ".contact-row"))
    name = browser.find_element(By.TAG_NAME, "h1").text.split("\n")[0].removesuffix(" ★")
    contact_url = browser.current_url
    click_and_wait_for_page(browser, browser.find_element(By.LINK_TEXT, "Add reminder"))
    assert browser.find_element(By.TAG_NAME, "h1").text == f"New reminder for {name}"
    today = datetime.now(timezone.utc).date()
    fill(browser, "title", "Call about the garden")
    set_value(browser, "initial_date", today.isoformat())
    # A one-time reminder has no "Every": the field shows only once the reminder repeats.
    assert not browser.find_element(By.ID, "frequency_number").is_displayed()
    Select(browser.find_element(By.ID, "frequency_type")).select_by_visible_text("Months")
    assert browser.find_element(By.ID, "frequency_number").is_displayed()
    fill(browser, "frequency_number", "1")
    shot(browser, screens, "30-reminder-form")
    submit(browser, "form.reminder-form button.primary")
    assert browser.current_url == contact_url
    line = browser.find_element(By.CSS_SELECTOR, ".reminders .reminder-list li").text
    assert "Call about the garden" in line and "every month" in line, line

    # The timeline: today's group has it, linked to the contact; the navigation counts it.
    click_and_wait_for_page(browser, browser.find_element(By.CSS_SELECTOR, "nav.site-nav a[href='/reminders']"))
    today_group = browser.find_element(By.ID, "today")
    assert "Call about the garden" in today_group.text
    assert today_group.find_element(By.LINK_TEXT, name).get_attribute("href") == contact_url
    badge = browser.find_element(By.CSS_SELECTOR, "nav.site-nav a[href='/reminders'] .count-badge [aria-hidden]")
    assert int(badge.text) >= 1
    shot(browser, screens, "31-reminders-timeline")

    # Made for today after today's moment, it is told at once (not tomorrow, not never), and an open Locify
    # page shows it as a browser notification.
    expected = f"{name}: Call about the garden"
    deadline = time.time() + 20
    shown = []
    while expected not in shown and time.time() < deadline:
        time.sleep(0.5)
        browser.get(server.url + "/reminders")
        shown = browser.execute_script("return JSON.parse(sessionStorage.getItem('shown') || '[]')")
    assert shown == [expected], shown

    browser.get(server.url + "/notifications")
    item = browser.find_element(By.CSS_SELECTOR, ".notification-list li.unread")
    assert expected in item.text and "Today," in item.text, item.text
    unread = browser.find_element(By.CSS_SELECTOR, "nav.site-nav a[href='/notifications'] .count-badge [aria-hidden]")
    assert unread.text == "1"
    shot(browser, screens, "33-notifications")
    browser.get(server.url + "/reminders")
    assert browser.execute_script("return JSON.parse(sessionStorage.getItem('shown') || '[]')") == [expected], \
        "each notification pops up once"

    browser.get(server.url + "/notifications")
    submit(browser, "main .page-head form button")
    assert not browser.find_elements(By.CSS_SELECTOR, ".notification-list li.unread")
    assert not browser.find_elements(By.CSS_SELECTOR, "nav.site-nav a[href='/notifications'] .count-badge")
    assert_no_console_errors(browser)
