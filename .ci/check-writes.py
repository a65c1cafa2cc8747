"""Fails when server code writes a table in its own SQL instead of through the table's TableWriter, the
one write path the revision log stamps (README, 'Storage: one convention for every table'). Migrations
write what their own schema holds, and the migration log and the SQLite schema snapshot are Fluent's and
the schema's, not a table's rows."""
import os, re, sys

root = sys.argv[1] if len(sys.argv) > 1 else "Sources/LocifyServer"
allowed = {
    "Configuration/TableWriter.swift",  # the write path itself
    "Operations/LocifyApp.swift",  # the migration log (`_fluent_migrations`)
    "Operations/SQLiteSchemaSnapshot+Statements.swift",  # triggers in the schema snapshot
}
write = re.compile(r'\b(INSERT\s+INTO|UPDATE\s+"|DELETE\s+FROM|REPLACE\s+INTO)\b', re.I)
problems = []
for directory, _, files in os.walk(root):
    for name in sorted(files):
        path = os.path.join(directory, name)
        relative = os.path.relpath(path, root)
        if not name.endswith(".swift") or relative in allowed or "/Migrations/" in "/" + relative:
            continue
        for number, line in enumerate(open(path, encoding="utf-8"), 1):
            code = line.split("//", 1)[0]
            if write.search(code):
                problems.append(f"{path}:{number}: writes in its own SQL: {line.strip()}")
for problem in problems:
    print(problem)
if problems:
    sys.exit(f"{len(problems)} writes outside TableWriter; see README, 'Storage: one convention for every table'")
print("Every write goes through a TableWriter.")
