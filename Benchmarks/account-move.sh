#!/usr/bin/env bash
# Moving a whole account to another server: an account of 10,000 contacts (each with an address and an
# e-mail) and 10,000 places is exported with `locify export account` and imported with `locify import
# account` into a new account on another data directory. Prints the file's size, each step's time and the
# most memory either command took, and checks that the new account holds as many records of each kind.
# Usage: bash Benchmarks/account-move.sh [RECORDS]   (a release binary is built unless LOCIFY_BIN names one)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh
make_bench_workspace
release_binary
LOCIFY_GEOCODER=off python3 - "$bin" "$work" "${1:-10000}" <<'PY'
import json, os, resource, subprocess, sys, time

binary, work, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

def locify(*arguments):
    started = time.time()
    subprocess.run([binary, *arguments], check=True, stdout=subprocess.DEVNULL)
    return time.time() - started

with open(os.path.join(work, "contacts.vcf"), "w") as out:
    for n in range(count):
        out.write(f"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Person {n};Moving;;;\r\nFN:Moving Person {n}\r\n"
                  f"EMAIL:person{n}@example.com\r\nADR;TYPE=HOME:;;{n} Main Street;Lyon;;{69000 + n % 9};\r\nEND:VCARD\r\n")
with open(os.path.join(work, "places.csv"), "w") as out:
    out.write("name,latitude,longitude,category\n")
    for n in range(count):
        out.write(f"Place {n},{45 + n % 1000 / 1000:.4f},{4 + n % 997 / 1000:.4f},Category {n % 20}\n")
source, target = os.path.join(work, "source"), os.path.join(work, "target")
for email, directory in [("from@example.com", source), ("to@example.com", target)]:
    locify("user", "create", "--email", email, "--name", "Mover", "--password", "benchmark", "--data-dir", directory)
locify("import", "contacts", os.path.join(work, "contacts.vcf"), "--email", "from@example.com", "--data-dir", source)
locify("import", "places", os.path.join(work, "places.csv"), "--email", "from@example.com", "--data-dir", source)

exported = os.path.join(work, "account.json")
export_seconds = locify("export", "account", "--email", "from@example.com", "-o", exported, "--data-dir", source)
import_seconds = locify("import", "account", exported, "--email", "to@example.com", "--data-dir", target)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
moved = os.path.join(work, "moved.json")
locify("export", "account", "--email", "to@example.com", "-o", moved, "--data-dir", target)

def kinds(path):
    counts = {}
    for record in json.load(open(path))["records"]:
        counts[record["type"]] = counts.get(record["type"], 0) + 1
    return counts

size = os.path.getsize(exported) / 1_000_000
print(f"Moving an account of {count} contacts and {count} places")
print(f"  export {export_seconds:.1f} s ({size:.0f} MB), import {import_seconds:.1f} s, "
      f"most memory a command took {peak:.0f} MB")
before, after = kinds(exported), kinds(moved)
print("  records: " + ", ".join(f"{kind} {number}" for kind, number in sorted(before.items())))
if before != after:
    sys.exit(f"the new account holds other records: {after}")
PY
