"""CalDAV driven by a real client, vdirsyncer (PyPI), as a phone's Calendar and Reminders apps use it: given
only the server's address, an e-mail and an app password, it discovers the Reminders, Birthdays and Tasks
calendars and downloads them; a task ticked done on the device is done in Locify, a to-do made there becomes a
task, a deletion in Locify leaves the device, and a time window brings only the events inside it."""
import shutil

from conftest import api
from test_carddav import VDIRSYNCER, assert_refused_as_too_large, dav_get, items, vdirsyncer


def objects(folder):
    """The device's copy of one calendar: each object's UID and its text."""
    return items(folder, "*.ics")


def config_text(tmp_path, server, account, token, phone, extra=""):
    return f"""
[general]
status_path = "{tmp_path / 'status'}/"

[pair calendars]
a = "phone"
b = "locify"
collections = ["from b"]
conflict_resolution = "b wins"

[storage phone]
type = "filesystem"
path = "{phone}/"
fileext = ".ics"

[storage locify]
type = "caldav"
url = "{server.url}/"
username = "{account.email}"
password = "{token}"
{extra}
"""


def test_a_calendar_app_given_the_servers_address_reads_the_calendars_and_ticks_tasks(server, account, tmp_path):
    assert VDIRSYNCER.exists(), "vdirsyncer is installed by .ci/run into the browser suite's venv"
    token = server.cli("token", "create", "--email", account.email, "--name", "phone").strip().splitlines()[-1]
    contacts = api(server, token, "GET", "/api/contacts?limit=100")["data"]
    ada = contacts[0]
    rent = api(server, token, "POST", "/api/reminders", {
        "contact_id": ada["id"], "title": "Pay the rent", "initial_date": "2024-01-31", "frequency_type": "month"})["data"]
    api(server, token, "POST", "/api/reminders", {
        "contact_id": ada["id"], "title": "Lunch", "initial_date": "2024-06-01", "frequency_type": "one_time"})
    call = api(server, token, "POST", "/api/tasks", {"contact_id": ada["id"], "title": "Call about the engine"})["data"]
    later = api(server, token, "POST", "/api/tasks", {"title": "Send the notes"})["data"]

    phone = tmp_path / "calendars"
    phone.mkdir()
    config = tmp_path / "config"
    config.write_text(config_text(tmp_path, server, account, token, phone))
    # Discovery from the bare address (/.well-known/caldav → principal → calendar home → the calendars).
    found = vdirsyncer(config, "discover", "calendars", answer="y\ny\ny\n")
    for name, shown in [("reminders", "Reminders"), ("birthdays", "Birthdays"), ("tasks", "Tasks")]:
        assert f'"{name}" ("{shown}")' in found, found
    vdirsyncer(config, "sync")

    reminders = api(server, token, "GET", "/api/reminders?limit=100")["data"]
    copy = objects(phone / "reminders")
    assert set(copy) == {f"{r['uuid']}@locify" for r in reminders}, copy.keys()
    rent_event = copy[f"{rent['uuid']}@locify"]
    assert "RRULE:FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1" in rent_event and "BEGIN:VALARM" in rent_event
    born = [c for c in contacts if c["information"]["dates"]["birthdate"]["date"]]
    assert len(objects(phone / "birthdays")) == len(born) > 0
    tasks = api(server, token, "GET", "/api/tasks?limit=100")["data"]
    on_phone = objects(phone / "tasks")
    assert set(on_phone) == {t["uuid"] for t in tasks}, on_phone.keys()
    assert "STATUS:NEEDS-ACTION" in on_phone[call["uuid"]]

    # Ticked done on the device, with a priority Locify has no field for: done in Locify, priority kept.
    folder = phone / "tasks"
    task_file = next(path for path in folder.glob("*.ics") if f"UID:{call['uuid']}" in path.read_text())
    task_file.write_text(task_file.read_text().replace("STATUS:NEEDS-ACTION", "STATUS:COMPLETED\r\nPRIORITY:1"))
    # A to-do made on the device becomes a task.
    (folder / "bread.ics").write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VTODO\r\nUID:bread-on-the-phone\r\n"
        "DTSTAMP:20241001T080000Z\r\nSUMMARY:Buy bread\r\nDUE;VALUE=DATE:20241005\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    vdirsyncer(config, "sync")
    now = {t["title"]: t for t in api(server, token, "GET", "/api/tasks?limit=100")["data"]}
    assert now["Call about the engine"]["completed"] is True, now["Call about the engine"]
    assert "Buy bread" in now and now["Buy bread"]["completed"] is False, now.keys()
    served = dav_get(server, account.email, token, f"/dav/calendars/tasks/{call['uuid']}.ics")
    assert "PRIORITY:1" in served and "STATUS:COMPLETED" in served, served

    # A task deleted in Locify leaves the device; the next sync brings Locify's writing of what the device
    # sent, once.
    api(server, token, "DELETE", f"/api/tasks/{later['id']}")
    vdirsyncer(config, "sync")
    assert later["uuid"] not in objects(folder)
    assert "DUE;VALUE=DATE:20241005" in (folder / "bread.ics").read_text()

    # Three syncs in a row with nothing changed change nothing.
    settled = {name: objects(phone / name) for name in ["reminders", "birthdays", "tasks"]}
    for _ in range(3):
        quiet = vdirsyncer(config, "sync")
        assert "Copying" not in quiet and "Deleting" not in quiet, quiet
    assert settled == {name: objects(phone / name) for name in ["reminders", "birthdays", "tasks"]}
    shutil.rmtree(phone)
    shutil.rmtree(tmp_path / "status")

    # A window of time (calendar-query with a time-range): April 2024 holds the rent, not the lunch.
    window = tmp_path / "window"
    window.mkdir()
    config.write_text(config_text(
        tmp_path, server, account, token, window,
        'start_date = "datetime(2024, 4, 1)"\nend_date = "datetime(2024, 5, 1)"\nitem_types = ["VEVENT"]'))
    vdirsyncer(config, "discover", "calendars", answer="y\ny\ny\n")
    vdirsyncer(config, "sync", "calendars/reminders")
    april = objects(window / "reminders")
    assert set(april) == {f"{rent['uuid']}@locify"}, april.keys()

    # A to-do over the 1 MB a request may carry is refused before it is read, and nothing is made.
    huge = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:big\r\nSUMMARY:Big\r\nDESCRIPTION:" + "x" * 1_200_000
            + "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    assert_refused_as_too_large(server, account.email, token, "/dav/calendars/tasks/big.ics", huge, "text/calendar")
    assert "Big" not in {t["title"] for t in api(server, token, "GET", "/api/tasks?limit=100")["data"]}

