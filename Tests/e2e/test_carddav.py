"""CardDAV driven by a real client, vdirsyncer (PyPI), as a phone's Contacts app uses it: given only the
server's address, an e-mail and an app password, it discovers the address book and downloads every card;
later syncs bring what changed on the server (an edit, a new address, a deletion) and nothing else, and
take back what changed on the device (a new card, an edit, a deletion), keeping what Locify does not
model."""
import base64
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from conftest import api

VDIRSYNCER = Path(sys.executable).parent / "vdirsyncer"


def vdirsyncer(config, *arguments, answer=""):
    result = subprocess.run([str(VDIRSYNCER), "-c", str(config), *arguments], input=answer, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, f"vdirsyncer {' '.join(arguments)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


def items(folder, pattern):
    """The device's copy: each item's UID and its text, for the files `pattern` names in `folder`."""
    found = {}
    for path in sorted(folder.glob(pattern)):
        text = path.read_text()
        uid = next(line[4:] for line in text.splitlines() if line.startswith("UID:"))
        found[uid] = text
    return found


def cards(folder):
    """The phone's copy of the address book: each card's UID and its text."""
    return items(folder, "*/*.vcf")


def test_a_dav_client_given_the_servers_address_keeps_the_address_book(server, account, tmp_path):
    assert VDIRSYNCER.exists(), "vdirsyncer is installed by .ci/run into the browser suite's venv"
    token = server.cli("token", "create", "--email", account.email, "--name", "phone").strip().splitlines()[-1]
    phone = tmp_path / "cards"
    phone.mkdir()
    config = tmp_path / "config"
    config.write_text(f"""
[general]
status_path = "{tmp_path / 'status'}/"

[pair contacts]
a = "phone"
b = "locify"
collections = ["from b"]
conflict_resolution = "b wins"

[storage phone]
type = "filesystem"
path = "{phone}/"
fileext = ".vcf"

[storage locify]
type = "carddav"
url = "{server.url}/"
username = "{account.email}"
password = "{token}"
""")
    # Discovery from the bare address (/.well-known/carddav → principal → home → the address book).
    found = vdirsyncer(config, "discover", "contacts", answer="y\n")
    assert '"contacts" ("Contacts")' in found, found
    vdirsyncer(config, "sync")
    contacts = api(server, token, "GET", "/api/contacts?limit=100")["data"]
    copy = cards(phone)
    assert set(copy) == {f"urn:uuid:{c['uuid']}" for c in contacts}, copy.keys()
    for contact in contacts:
        assert f"FN:{contact['complete_name']}" in copy[f"urn:uuid:{contact['uuid']}"]

    # Changes on the server reach the phone at its next sync: an edit, a new address, a deletion.
    edited, removed = contacts[0], contacts[1]
    api(server, token, "PUT", f"/api/contacts/{edited['id']}", {"nickname": "Enchantress of Numbers"})
    api(server, token, "POST", f"/api/contacts/{edited['id']}/addresses", {
        "name": "Home", "street": "12 St James's Square", "city": "London", "postal_code": "SW1Y 4JH", "country": "GB"})
    api(server, token, "DELETE", f"/api/contacts/{removed['id']}")
    # The new address is placed on the map by a job after it is saved, which changes the card once more (its
    # GEO): a device that read the card before and wrote it after would rightly be refused (412). Sync once
    # it is placed, as a phone's next sync would see it.
    deadline = time.monotonic() + 20
    while not any(address["latitude"] is not None
                  for address in api(server, token, "GET", f"/api/contacts/{edited['id']}/addresses")["data"]):
        assert time.monotonic() < deadline, "the new address was not placed on the map"
        time.sleep(0.2)
    synced = vdirsyncer(config, "sync")
    after = cards(phone)
    assert f"urn:uuid:{removed['uuid']}" not in after
    assert len(after) == len(copy) - 1
    card = after[f"urn:uuid:{edited['uuid']}"]
    assert "NICKNAME:Enchantress of Numbers" in card and "St James's Square" in card, card
    # Only the changed cards travelled; the others are as they were.
    unchanged = {uid: text for uid, text in after.items() if uid != f"urn:uuid:{edited['uuid']}"}
    assert unchanged == {uid: copy[uid] for uid in unchanged}
    assert synced.count("Copying (updating)") == 1, synced

    # Changes on the device reach Locify: a new card (with a property Locify does not model), an edit, a
    # deletion.
    folder = next(phone.iterdir())
    (folder / "hedy.vcf").write_text(
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:hedy-on-the-phone\r\nN:Lamarr;Hedy;;;\r\nFN:Hedy Lamarr\r\n"
        "EMAIL;TYPE=INTERNET:hedy@example.org\r\nX-PHONE-ONLY:kept as written\r\nEND:VCARD\r\n")
    edited_file = next(path for path in folder.glob("*.vcf") if f"urn:uuid:{edited['uuid']}" in path.read_text())
    edited_file.write_text(edited_file.read_text().replace("NICKNAME:Enchantress of Numbers", "NICKNAME:Countess"))
    dropped = contacts[2]
    next(path for path in folder.glob("*.vcf") if f"urn:uuid:{dropped['uuid']}" in path.read_text()).unlink()
    vdirsyncer(config, "sync")
    now = {c["complete_name"]: c for c in api(server, token, "GET", "/api/contacts?limit=100")["data"]}
    assert "Hedy Lamarr" in now, now.keys()
    assert dropped["complete_name"] not in now
    assert now[edited["complete_name"]]["nickname"] == "Countess"
    hedy = api(server, token, "GET", f"/api/contacts/{now['Hedy Lamarr']['id']}/contactfields")["data"]
    assert [field["content"] for field in hedy] == ["hedy@example.org"], hedy
    # The server serves the card back with the property it does not model.
    served = dav_get(server, account.email, token, f"/dav/addressbooks/contacts/{cards_href(server, account.email, token, 'Hedy Lamarr')}")
    assert "X-PHONE-ONLY:kept as written" in served and "FN:Hedy Lamarr" in served, served

    # The next sync brings Locify's writing of the cards the device sent (same UID, same file), once.
    normalized = vdirsyncer(config, "sync")
    assert "Deleting" not in normalized and "uploading" not in normalized, normalized
    assert "X-PHONE-ONLY:kept as written" in (folder / "hedy.vcf").read_text()

    # Three syncs in a row with nothing changed change nothing.
    settled = cards(phone)
    for _ in range(3):
        quiet = vdirsyncer(config, "sync")
        assert "Copying" not in quiet and "Deleting" not in quiet, quiet
    assert cards(phone) == settled
    shutil.rmtree(phone)

    # A card over the 1 MB a request may carry is refused before it is read, and nothing is made.
    huge = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Big\r\nNOTE:" + "x" * 1_200_000 + "\r\nEND:VCARD\r\n"
    assert_refused_as_too_large(server, account.email, token, "/dav/addressbooks/contacts/big.vcf", huge, "text/vcard")
    assert "Big" not in {c["complete_name"] for c in api(server, token, "GET", "/api/contacts?limit=100")["data"]}


def assert_refused_as_too_large(server, email, token, path, body, content_type):
    """A PUT of `body` answers 413, before the body is read."""
    request = urllib.request.Request(
        server.url + path, data=body.encode(), method="PUT",
        headers={"Authorization": basic(email, token), "Content-Type": content_type})
    try:
        urllib.request.urlopen(request)
        raise AssertionError(f"{len(body)} bytes were accepted at {path}")
    except urllib.error.HTTPError as refused:
        assert refused.code == 413, refused.code


def basic(email, token):
    return "Basic " + base64.b64encode(f"{email}:{token}".encode()).decode()


def dav_get(server, email, token, path):
    request = urllib.request.Request(server.url + path, headers={"Authorization": basic(email, token)})
    with urllib.request.urlopen(request) as response:
        return response.read().decode()


def cards_href(server, email, token, name):
    """The file name of the card whose FN is `name`, asked of the address book as a client asks."""
    import re
    request = urllib.request.Request(
        server.url + "/dav/addressbooks/contacts/", method="PROPFIND", headers={
            "Authorization": basic(email, token), "Depth": "1", "Content-Type": "application/xml"},
        data=b'<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>')
    with urllib.request.urlopen(request) as response:
        hrefs = re.findall(r"<d:href>/dav/addressbooks/contacts/([^<]+)</d:href>", response.read().decode())
    return next(href for href in hrefs if f"FN:{name}" in dav_get(server, email, token, f"/dav/addressbooks/contacts/{href}"))
