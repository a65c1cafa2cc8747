"""A contact's phone numbers, tags, tasks and notes in a real browser, on a desktop window and on a 360 px
phone: a phone number added (a tel: link) and the contact found by its digits typed another way, a tag
added with the suggestions list, the contact found by that tag, a task added and ticked off (and gone from
the Tasks page), and a note written with its line breaks kept."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import assert_no_console_errors, click_and_wait_for_page, fill, open_add_form, shot, submit


def plain_name(text):
    # A starred contact's name carries the star and, for screen readers, "(starred)".
    return text.split("\n")[0].replace("★", "").strip()


def open_first_contact(driver, server):
    driver.get(server.url + "/contacts")
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, ".contact-row"))
    return plain_name(driver.find_element(By.TAG_NAME, "h1").text), driver.current_url


def tag_task_and_note(driver, server, screens, label):
    name, contact_url = open_first_contact(driver, server)

    # The person first: how to reach them, addresses and reminders; tasks, notes, tags and the rest folded
    # under one summary, a tap away (or a link under the name away); the add forms stay folded until wanted.
    sections = [e.get_attribute("id") or e.find_element(By.TAG_NAME, "h2").get_attribute("id")
                for e in driver.find_elements(By.CSS_SELECTOR, ".contact-detail > section")]
    order = [s for s in sections if s in ("fields", "addresses-heading", "reminders-heading")]
    assert order == ["fields", "addresses-heading", "reminders-heading"], sections
    folded = [e.get_attribute("id") for e in driver.find_elements(By.CSS_SELECTOR, "details.more-sections > section")]
    assert folded.index("tags") > folded.index("notes") > folded.index("tasks"), folded
    assert not driver.find_element(By.ID, "tasks").is_displayed(), "the rest is folded"
    links = [a.get_attribute("href").split("#")[1] for a in driver.find_elements(By.CSS_SELECTOR, ".section-links a")]
    assert links[:3] == ["fields", "addresses-heading", "reminders-heading"], links
    assert not driver.find_element(By.ID, "new-note").is_displayed(), "the note form is folded"
    shot(driver, screens, f"58-{label}-contact-page")
    # A phone number: Phone is the kind chosen first; the number becomes a link that calls it.
    open_add_form(driver, "new-field-data")
    assert Select(driver.find_element(By.ID, "new-field-kind")).first_selected_option.text == "Phone"
    fill(driver, "new-field-data", "+44 20 7946 0958")
    fill(driver, "new-field-labels", "Mobile")
    submit(driver, "#fields form.inline-form button[type=submit]")
    assert driver.current_url.startswith(contact_url)
    number = driver.find_element(By.CSS_SELECTOR, "#fields a.field-value[href^='tel:']")
    assert number.text == "+44 20 7946 0958"
    assert number.get_attribute("href") == "tel:+442079460958"
    assert "Phone · Mobile" in driver.find_element(By.ID, "fields").text
    shot(driver, screens, f"59-{label}-contact-phone")

    # Found by the number, typed with other spacing.
    driver.get(server.url + "/contacts")
    fill(driver, "q", "2079 460958")
    submit(driver, "form.search button[type=submit]")
    assert "1 contact matching" in driver.find_element(By.ID, "contacts-summary").text
    rows = driver.find_elements(By.CSS_SELECTOR, ".contact-row .contact-name")
    assert [plain_name(row.text) for row in rows] == [name]
    driver.get(contact_url)

    # A tag: typed into the field the suggestions list serves, then shown as a link on the page.
    open_add_form(driver, "new-tags")
    fill(driver, "new-tags", "Book club")
    submit(driver, "#tags form.inline-form button[type=submit]")
    assert driver.current_url.startswith(contact_url)
    tag_link = driver.find_element(By.CSS_SELECTOR, "#tags .tag-list a.tag")
    assert tag_link.text == "Book club"
    assert driver.find_element(By.ID, "new-tags").get_attribute("list") == "new-tags-suggestions"

    # The contact list narrowed to the tag, from the tag's link and from the list's own filter.
    click_and_wait_for_page(driver, tag_link)
    assert "1 contact tagged “Book club”" in driver.find_element(By.ID, "contacts-summary").text
    rows = driver.find_elements(By.CSS_SELECTOR, ".contact-row .contact-name")
    assert [plain_name(row.text) for row in rows] == [name]
    driver.get(server.url + "/contacts")
    Select(driver.find_element(By.ID, "tag-filter")).select_by_visible_text("Book club")
    submit(driver, "form.search button[type=submit]")
    assert "tagged “Book club”" in driver.find_element(By.ID, "contacts-summary").text
    shot(driver, screens, f"60-{label}-contacts-by-tag")

    # A task: added on the contact's page, listed on the Tasks page, ticked off, and gone from it.
    driver.get(contact_url)
    open_add_form(driver, "new-task")
    fill(driver, "new-task", "Lend the Lovelace biography")
    submit(driver, "#tasks form.inline-form button[type=submit]")
    task = driver.find_element(By.CSS_SELECTOR, "#tasks .task-list li")
    assert "Lend the Lovelace biography" in task.text
    driver.get(server.url + "/tasks")
    assert "Lend the Lovelace biography" in driver.find_element(By.CSS_SELECTOR, ".task-list").text
    shot(driver, screens, f"61-{label}-tasks")
    done = driver.find_element(By.CSS_SELECTOR, ".task-list li form.inline button[type=submit]")
    assert done.get_attribute("aria-pressed") == "false"
    click_and_wait_for_page(driver, done)
    assert driver.find_elements(By.CSS_SELECTOR, ".task-list li") == []
    assert "is done" in driver.page_source
    driver.get(contact_url)
    ticked = driver.find_element(By.CSS_SELECTOR, "#tasks .task-list li.done")
    assert ticked.find_element(By.CSS_SELECTOR, "form.inline button").get_attribute("aria-pressed") == "true"

    # A note: its line breaks kept, shown newest first.
    open_add_form(driver, "new-note")
    fill(driver, "new-note", "Met at the book club.\nReads in Italian.")
    submit(driver, "#notes form button[type=submit]")
    body = driver.find_element(By.CSS_SELECTOR, "#notes .note-list .note-body")
    assert body.text == "Met at the book club.\nReads in Italian."
    shot(driver, screens, f"62-{label}-contact-notes")
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the window"
    assert_no_console_errors(driver)


def test_tags_tasks_and_notes_on_a_desktop(server, browser, signed_in, screens):
    tag_task_and_note(browser, server, screens, "desktop")


def test_tags_tasks_and_notes_on_a_phone(server, phone, signed_in_phone, screens):
    tag_task_and_note(phone, server, screens, "phone")


def test_a_long_contact_list_is_filtered_as_one_types(server, browser, signed_in, screens):
    # The Tasks page's contact picker holds all twelve sample contacts: a filter above it narrows the list
    # as one types, accents ignored, and picks the first contact that fits.
    browser.get(server.url + "/tasks")
    picker = Select(browser.find_element(By.ID, "task-contact"))
    # One control, not a search box over a list: a combobox labelled as the list was, the list kept in the
    # form (hidden) to carry the value.
    combo = browser.find_element(By.ID, "task-contact-filter")
    assert combo.get_attribute("role") == "combobox"
    assert browser.find_element(By.CSS_SELECTOR, "label[for=task-contact-filter]").text
    assert not browser.find_element(By.ID, "task-contact").is_displayed()
    fill(browser, "task-contact-filter", "PRÍYA")
    assert picker.first_selected_option.get_attribute("textContent") == "Priya Raman"
    assert combo.get_attribute("aria-expanded") == "true"
    offered = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#task-contact-choices [role=option]")]
    assert offered == ["Priya Raman"], "only Priya is offered"
    # The keyboard: arrows move through what fits, Enter chooses it and closes the list.
    combo.clear()
    combo.send_keys("a")
    first_two = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#task-contact-choices [role=option]")][:2]
    combo.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    active = browser.find_element(By.ID, combo.get_attribute("aria-activedescendant"))
    assert active.text == first_two[1]
    combo.send_keys(Keys.ENTER)
    assert combo.get_attribute("aria-expanded") == "false"
    assert picker.first_selected_option.get_attribute("textContent") == first_two[1] == combo.get_attribute("value")
    fill(browser, "task-contact-filter", "PRÍYA")
    combo.send_keys(Keys.ENTER)
    assert combo.get_attribute("value") == "Priya Raman"
    fill(browser, "task-title", "Send Priya the trip photos")
    shot(browser, screens, "63-desktop-task-contact-filter")
    submit(browser, "main form.panel button[type=submit]")
    tasks = [item.text for item in browser.find_elements(By.CSS_SELECTOR, ".task-list li")]
    assert any("Send Priya the trip photos — Priya Raman" in text for text in tasks), tasks
    assert_no_console_errors(browser)
