"""Photos and avatars in a real browser: a photo uploaded with a preview shows in the list and on the
contact page, a contact with a Gravatar (from the stand-in) shows it, the others show their initials,
and no page of the app shows a broken image."""
import tempfile
import time
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import TILE_PNG, click_and_wait_for_page, fill, open_add_form, shot, submit, unfold, wait

# Every picture the page has, after scrolling so lazy ones load: which are broken (loaded, no pixels).
BROKEN_IMAGES = """
const done = arguments[arguments.length - 1];
window.scrollTo(0, document.body.scrollHeight);
setTimeout(() => {
  const images = [...document.images];
  Promise.all(images.map((image) => image.complete ? null : new Promise((resolve) => {
    image.addEventListener('load', resolve, {once: true});
    image.addEventListener('error', resolve, {once: true});
    setTimeout(resolve, 3000);
  }))).then(() => {
    // A picture taken away after an error is the page's fallback working; one still there with no
    // pixels is what a person would see as broken.
    // An image with no source yet (the hidden upload preview) shows nothing and is not broken.
    done(images.filter((image) => image.isConnected && image.getAttribute('src') && image.complete
      && image.naturalWidth === 0)
      .map((image) => image.src));
  });
}, 200);
"""


def assert_no_broken_images(driver):
    broken = driver.execute_async_script(BROKEN_IMAGES)
    assert broken == [], f"broken images on {driver.current_url}: {broken}"


def avatar_of(driver, row_text):
    row = next(r for r in driver.find_elements(By.CSS_SELECTOR, ".contact-row") if row_text in r.text)
    return row.find_element(By.CSS_SELECTOR, ".avatar")


def test_a_photo_becomes_the_picture_and_no_page_shows_a_broken_image(server, browser, signed_in, screens):
    browser.set_script_timeout(15)
    # The Gravatar look-up runs in the background: give the server's worker a moment.
    deadline = time.time() + 10
    while True:
        browser.get(server.url + "/contacts")
        amelie = avatar_of(browser, "Amélie")
        if amelie.find_elements(By.TAG_NAME, "img") or time.time() > deadline:
            break
        time.sleep(0.5)
    image = amelie.find_element(By.TAG_NAME, "img")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].naturalWidth", image) > 0)
    assert image.get_attribute("width") == "40" and image.get_attribute("loading") == "lazy"
    assert any("/avatar/" in path for path in server.tiles.requests), "the server asked the Gravatar stand-in"
    # A contact without an e-mail's Gravatar or a photo shows its initials, drawn by the page.
    jonas = avatar_of(browser, "Jonas")
    assert jonas.find_elements(By.TAG_NAME, "img") == []
    assert jonas.find_element(By.CSS_SELECTOR, ".avatar-initials").text == "JB"
    assert_no_broken_images(browser)

    # Upload a photo for Jonas, with a preview before it is sent.
    click_and_wait_for_page(browser, next(
        r for r in browser.find_elements(By.CSS_SELECTOR, ".contact-row") if "Jonas" in r.text))
    contact_url = browser.current_url
    photo = Path(tempfile.mkdtemp()) / "jonas.png"
    photo.write_bytes(TILE_PNG)
    open_add_form(browser, "photo-file").send_keys(str(photo))
    preview = browser.find_element(By.ID, "photo-preview")
    wait(browser).until(lambda d: preview.is_displayed())
    assert preview.get_attribute("src").startswith("data:image/png;base64,")
    shot(browser, screens, "40-photo-preview")
    submit(browser, "form.photo-upload button[type=submit]")
    assert browser.current_url.split("#")[0] == contact_url
    assert "now Jonas" in browser.find_element(By.CSS_SELECTOR, "[role=status], .flash").text
    header_image = browser.find_element(By.CSS_SELECTOR, ".contact-header .avatar img")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].naturalWidth", header_image) > 0)
    assert header_image.get_attribute("width") == "128"
    shot(browser, screens, "41-contact-with-photo")
    assert_no_broken_images(browser)

    # Back in the list it is Jonas's picture now.
    browser.get(server.url + "/contacts")
    jonas_image = avatar_of(browser, "Jonas").find_element(By.TAG_NAME, "img")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].naturalWidth", jonas_image) > 0)

    # Back to initials from the contact page, its photos unfolded first.
    browser.get(contact_url)
    unfold(browser, browser.find_element(By.CSS_SELECTOR, "section.pictures form button[type=submit]"))
    submit(browser, "section.pictures form button[type=submit]")
    assert browser.find_elements(By.CSS_SELECTOR, ".contact-header .avatar img") == []
    assert browser.find_element(By.CSS_SELECTOR, ".contact-header .avatar-initials").text == "JB"

    # A picture that fails to load leaves the initials, not a broken image.
    browser.get(server.url + "/contacts")
    browser.execute_script(
        "const image = document.querySelector('.contact-row .avatar img');"
        "image.src = '/store/avatars/999999?v=gone';")
    wait(browser).until(lambda d: d.execute_script(
        "return [...document.querySelectorAll('.contact-row .avatar img')].every(i => !i.src.includes('999999'))"))
    assert_no_broken_images(browser)

    # Every page of the app, none with a broken image.
    for path in ["/contacts", contact_url.replace(server.url, ""), "/reminders", "/map", "/notifications",
                 "/settings", "/settings/notifications", "/about"]:
        browser.get(server.url + path)
        assert_no_broken_images(browser)
        if path == "/settings":
            settings = browser.find_element(By.ID, "pictures-heading").find_element(By.XPATH, "..").text
            assert "MD5 hash" in settings
    assert_no_console_errors_except_missing(browser)


def assert_no_console_errors_except_missing(driver):
    # The picture made to fail above is expected to answer 404; anything else is a defect.
    entries = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "999999" not in e["message"]
               and "status of 422" not in e["message"] and "/maps/tiles/" not in e["message"]]
    assert entries == [], entries


def test_a_place_gets_pictures_and_comments(server, browser, signed_in, screens):
    """A place's pictures (uploaded with a preview, the cover large and in the list, reordered) and its
    comments, in a real browser, with no broken image anywhere."""
    browser.set_script_timeout(15)
    browser.get(server.url + "/places/new?name=Caf%C3%A9%20de%20Flore&lat=48.8541&lon=2.3326&kind=cafe")
    # Opened at a point, the form offers the named places there (the bundled gazetteer's, offline).
    assert "Named places near here" in browser.find_element(By.ID, "nearby-heading").text
    assert any("Paris" in a.text for a in browser.find_elements(By.CSS_SELECTOR, ".result-list a"))
    submit(browser, "form.place-form button.primary")
    place_url = browser.current_url.split("#")[0]
    assert "No pictures yet." in browser.find_element(By.ID, "photos").text

    folder = Path(tempfile.mkdtemp())
    for index, name in enumerate(["terrace.png", "menu.png"]):
        picture = folder / name
        picture.write_bytes(TILE_PNG)
        chooser = browser.find_element(By.ID, "place-photo-file")
        chooser.send_keys(str(picture))
        if index == 0:
            preview = browser.find_element(By.ID, "place-photo-preview")
            wait(browser).until(lambda d: preview.is_displayed())
            assert preview.get_attribute("src").startswith("data:image/png;base64,")
        submit(browser, "form.photo-upload button[type=submit]")
        assert browser.current_url.split("#")[0] == place_url
        assert "The picture was added." in browser.find_element(By.CSS_SELECTOR, ".flash").text
    cover = browser.find_element(By.CSS_SELECTOR, "img.place-cover")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].naturalWidth", cover) > 0)
    assert cover.get_attribute("alt") == "Cover picture of Café de Flore"
    # The second picture made the cover: its "Make it the cover" button is the first in its card.
    submit(browser, "#photos .photo-grid li:nth-child(2) form button[type=submit]")
    assert "The picture is now the cover." in browser.find_element(By.CSS_SELECTOR, ".flash").text
    badges = [li.find_elements(By.CSS_SELECTOR, ".badge") for li in browser.find_elements(By.CSS_SELECTOR, "#photos .photo-grid li")]
    assert [len(b) for b in badges] == [1, 0]
    shot(browser, screens, "47-place-pictures")
    assert_no_broken_images(browser)

    # A comment, kept as typed (no Markdown), with who wrote it.
    fill(browser, "new-comment", "Ask for the *terrace*.\nClosed on Mondays.")
    submit(browser, "form.comment-form button[type=submit]")
    body = browser.find_element(By.CSS_SELECTOR, "#comments .comment-body").text
    assert body == "Ask for the *terrace*.\nClosed on Mondays.", body
    assert browser.find_element(By.CSS_SELECTOR, "#comments .comment-meta strong").text
    shot(browser, screens, "48-place-comments")

    # The list shows the cover beside the place.
    category = browser.find_element(By.CSS_SELECTOR, ".facts a").get_attribute("href")
    browser.get(category)
    thumb = browser.find_element(By.CSS_SELECTOR, ".place-list img.place-thumb")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].naturalWidth", thumb) > 0)
    assert_no_broken_images(browser)
    assert_no_console_errors_except_missing(browser)
