"""Fails when a shared folder of Sources/LocifyServer names a feature's type or a member a feature adds
to a shared type (`request.places()`, `application.notificationPlanner`). Accounts, the identity every
request carries, is beneath them all and may be named.

Also fails when a feature names another feature's type, unless the other is one every feature may use
(Contacts, Accounts, Maps, and Operations' `LocifyApp`, which features extend with their command-line
work) or the pair is one of the known ones below, which the README lists. Operations, the glue of the
command line and the benchmarks, may name any feature."""
import os, re, sys

root = sys.argv[1] if len(sys.argv) > 1 else "Sources/LocifyServer"
shared = {"Configuration", "Routing", "Web", "Errors", "Jobs", "OutsideServices", "MonicaAPI", "Sync"}
beneath = {"Accounts"}
modifiers = r'(?:public |private |fileprivate |internal |final |indirect |static |nonisolated |@discardableResult )*'
top_level_type = re.compile(r'^' + modifiers + r'(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)', re.M)
extension = re.compile(r'^extension\s+([A-Z][\w.]*)[^{]*\{(.*?)^\}', re.M | re.S)
member = re.compile(r'^    ' + modifiers + r'(func|var|let)\s+(\w+)', re.M)


def swift_files(folder):
    for directory, _, files in os.walk(os.path.join(root, folder)):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                yield path, open(path, encoding="utf-8").read()


types, members = {}, {}
for folder in sorted(os.listdir(root)):
    if not os.path.isdir(os.path.join(root, folder)) or folder in shared | beneath or folder == "Resources":
        continue
    for _, text in swift_files(folder):
        for name in top_level_type.findall(text):
            types.setdefault(name, folder)
        for extended, body in extension.findall(text):
            if extended not in ("Request", "Application"):
                continue  # what a feature adds to the request and the application, its factories
            for kind, name in member.findall(body):
                # A function is found by its call, a property by its name.
                members.setdefault(name + "(" if kind == "func" else name, folder)

# A name the shared folders declare themselves (a case, a member) is theirs.
for folder in shared:
    for _, text in swift_files(folder):
        # A function, and a case with values, read like calls.
        for kind, name, paren in re.findall(r'\b(case|func|var|let)\s+(\w+)(\(?)', text):
            members.pop(name + "(" if kind == "func" or paren else name, None)

problems = []
for folder in sorted(shared):
    for path, text in swift_files(folder):
        code = re.sub(r'//.*', '', text)
        for name in sorted(set(re.findall(r'\b[A-Z]\w*\b', code)) & types.keys()):
            problems.append(f"{path}: names {name} ({types[name]})")
        used = set(re.findall(r'\.(\w+\(?)', code))
        for name in sorted(used & members.keys()):
            problems.append(f"{path}: uses .{name} ({members[name]})")
# Features on one another.
usable_by_all = {"Contacts", "Accounts", "Maps", "Operations"}
known = {
    # The contact page and contact writes: sections, a birthday's reminder, the first e-mail, tags,
    # relationships (Monica's `information.relationships`).
    "Contacts": {
        "Addresses", "Calls", "Conversations", "ContactFields", "Debts", "Genders", "Gifts", "LifeEvents", "Pets", "NotesAndTasks", "Photos", "Reminders", "Relationships", "Work", "Documents",
        "Tags",
    },
    # CardDAV: a card a client writes says the whole contact, its addresses, fields and tags. CalDAV: the
    # reminders (with the notification time as their alert) and tasks as calendars, tasks written back; a
    # card's picture is the contact's avatar, and a device's picture becomes one of its photos.
    "DAV": {"Addresses", "ContactFields", "Tags", "Reminders", "NotesAndTasks", "Notifications", "Photos"},
    # A changed first e-mail changes the Gravatar.
    "ContactFields": {"Photos"},
    # Planning reads reminders; the reminders feed's secret and the week's start are notification settings.
    "Notifications": {"Reminders"},
    "Reminders": {"Notifications"},
    # A life event's `has_reminder` makes its yearly reminder.
    "LifeEvents": {"Reminders"},
    # The journal page lists the activities.
    "Journal": {"Activities"},
    # A conversation is held by one of the contact field kinds.
    "Conversations": {"ContactFields"},
    # A document's file is kept with the photos' bytes.
    "Documents": {"Photos"},
    # A place's pictures are kept, served and signed as photos are.
    "Places": {"Photos"},
}
texts = {}
for folder in sorted(os.listdir(root)):
    if os.path.isdir(os.path.join(root, folder)) and folder not in shared | {"Resources"}:
        texts[folder] = re.sub(r'//.*', '', "\n".join(text for _, text in swift_files(folder)))
for folder, code in sorted(texts.items()):
    if folder == "Operations":
        continue
    for name in sorted(set(re.findall(r'\b[A-Z]\w*\b', code))):
        other = types.get(name)
        if other is None or other == folder or other in usable_by_all or other in known.get(folder, set()):
            continue
        problems.append(f"{root}/{folder}: names {name} ({other})")

for problem in problems:
    print(problem)
if problems:
    sys.exit(f"{len(problems)} dependencies against the rule; see README, 'Features depend one way'")
print("Shared folders name no feature, and features use one another only as the README says.")
