"""CardDAV driven by a real client, vdirsyncer (PyPI), as a phone's Contacts app uses it: given only the
server's address, an e-mail and an app password, it discovers the address book and downloads every card;
later syncs bring what changed on the server (an edit, a new address, a deletion) and nothing else."""
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import api

VDIRSYNCER = Path(sys.executable).parent / "vdirsyncer"


def vdirsyncer(config, *arguments, answer=""):
    result = subprocess.run([str(VDIRSYNCER), "-c", str(config), *arguments], input=answer, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, f"vdirsyncer {' '.join(arguments)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


def cards(folder):
    """The phone's copy: each card's UID and its text."""
    found = {}
    for path in sorted(folder.glob("*/*.vcf")):
        text = path.read_text()
        uid = next(line[4:] for line in text.splitlines() if line.startswith("UID:"))
        found[uid] = text
    return found


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
read_only = true
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

    # Three syncs in a row with nothing changed change nothing.
    for _ in range(3):
        quiet = vdirsyncer(config, "sync")
        assert "Copying" not in quiet and "Deleting" not in quiet, quiet
    assert cards(phone) == after
    shutil.rmtree(phone)
