"""Every page of a lived-in account passes axe-core (WCAG 2.0, 2.1 and 2.2 A and AA, and its best practices), on a
desktop and on a phone: the sample data fills each list, so the checks meet real rows, pictures, maps and forms."""
import importlib.util
import pathlib

from selenium.webdriver.common.by import By

from conftest import log_in, wait

AXE = pathlib.Path(list(importlib.util.find_spec("axe_playwright_python").submodule_search_locations)[0]) / "axe.min.js"
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}}


def violations(driver):
    """axe-core's violations on the page as it stands, each as `rule: target (summary)`."""
    if not driver.execute_script("return typeof window.axe !== 'undefined'"):
        driver.execute_script(AXE.read_text())
    driver.set_script_timeout(60)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; axe.run(document, arguments[0]).then(done, e => done({error: String(e)}))",
        RULES)
    assert "error" not in result, result
    def related(node):
        near = [related["target"] for check in node["any"] + node["all"] + node["none"] for related in check["relatedNodes"]]
        return f" (near {near[:3]})" if near else ""
    return [f"{v['id']} ({v['impact']}): {node['target']} — {node['failureSummary'].splitlines()[-1].strip()}{related(node)}"
            for v in result["violations"] for node in v["nodes"]]


def pages(driver, server):
    driver.get(server.url + "/contacts")
    contact = driver.find_element(By.CSS_SELECTOR, ".contact-list a").get_attribute("href")
    driver.get(server.url + "/places")
    category = driver.find_element(By.CSS_SELECTOR, ".category-list li:not(.category-favorites) a.category-link").get_attribute("href")
    driver.get(category)
    place = driver.find_element(By.CSS_SELECTOR, ".place-list a").get_attribute("href")
    return ["/start", "/contacts", contact, "/contacts/new", "/map", "/places", category, category + "/sharing", place,
            "/places/new",
            "/reminders", "/reminders/new", "/tasks", "/journal", "/notifications", "/settings", "/settings/notifications",
            "/settings/places", "/settings/map-areas", "/settings/genders", "/settings/field-kinds",
            "/settings/feedback", "/about"]


def check_every_page(driver, server):
    found = {}
    for page in pages(driver, server):
        driver.get(page if page.startswith("http") else server.url + page)
        wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
        problems = violations(driver)
        if problems:
            found[page] = problems
    assert found == {}, "\n".join(f"{page}:\n  " + "\n  ".join(problems) for page, problems in found.items())


def test_every_page_passes_axe_on_a_desktop(server, browser, lived_in_account):
    log_in(browser, server, lived_in_account)
    check_every_page(browser, server)


def test_every_page_passes_axe_on_a_phone(server, phone, lived_in_account):
    log_in(phone, server, lived_in_account)
    check_every_page(phone, server)


def test_the_signed_out_pages_pass_axe(server, browser):
    found = {}
    for page in ["/login", "/register"]:
        browser.get(server.url + page)
        problems = violations(browser)
        if problems:
            found[page] = problems
    assert found == {}, found
    # The checker is awake: a field without a label and a picture without words are caught.
    browser.execute_script(
        "document.querySelector('main').insertAdjacentHTML('beforeend', '<input id=stray><img src=/favicon.svg>')")
    caught = " ".join(violations(browser))
    assert "label (critical): ['#stray']" in caught and "image-alt" in caught, caught
