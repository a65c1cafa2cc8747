#!/usr/bin/env bash
# Hostile uploads: 20 connections at once, each sending a 60 MB body, against every kind of route that
# reads a body before it knows who is sending: the log-in form, a web upload without a session or with
# a forged form token, API uploads without a token, and an API upload whose declared length is over its
# route's limit. The server's resident memory is sampled every 10 ms; the run fails when its peak passes
# the target (250 MB unless MAX_RSS_MB says otherwise). Usage: bash Benchmarks/upload-memory.sh
# Builds a release binary unless LOCIFY_BIN names one; sends traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh
release_binary
start_bench_server

python3 - "$port" "$token" "$server" "${MAX_RSS_MB:-250}" "${UPLOADS:-20}" "${UPLOAD_MB:-60}" <<'PY'
import http.client, re, socket, sys, threading, time, urllib.parse
port, token, pid = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
limit_mb, uploads, size = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]) * 1024 * 1024
boundary = "bench-boundary"

def rss_mb():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

def web_session():
    """A CSRF cookie and token, and a signed-in session, as a browser gets them."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", "/login")
    response = connection.getresponse()
    page = response.read().decode()
    csrf = re.search(r"locify_csrf=([^;]+)", response.getheader("Set-Cookie")).group(1)
    form_token = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"_csrf": form_token, "email": "bench@example.com", "password": "benchmark"})
    connection.request("POST", "/login", body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"locify_csrf={csrf}"})
    response = connection.getresponse()
    response.read()
    session = re.search(r"locify_session=([^;]+)", " ".join(response.headers.get_all("Set-Cookie") or [])).group(1)
    return csrf, form_token, session

csrf, form_token, session = web_session()
anonymous = f"Cookie: locify_csrf={csrf}"
signed_in = f"Cookie: locify_csrf={csrf}; locify_session={session}"

def first_part(csrf_value):
    return (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n{csrf_value}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big\"\r\n\r\n").encode()

# (label, path, extra header, first bytes of the body, chunked)
scenarios = [
    ("log-in form, declared length", "/login", anonymous, first_part(form_token), False),
    ("log-in form, chunked", "/login", anonymous, first_part(form_token), True),
    ("web upload, no session", "/settings/import", anonymous, first_part(form_token), True),
    ("web upload, forged token", "/settings/import", signed_in, first_part("forged"), True),
    ("API places import, no token", "/api/places/import", "Authorization: Bearer nobody", first_part(""), True),
    ("API photo, no token, declared", "/api/photos", "Authorization: Bearer nobody", first_part(""), False),
    ("API import, token, declared 60 MB", "/api/places/import", f"Authorization: Bearer {token}", first_part(""), False),
    ("API document, no token, chunked", "/api/documents", "Authorization: Bearer nobody", first_part(""), True),
    ("API document, token, declared 60 MB", "/api/documents", f"Authorization: Bearer {token}", first_part(""), False),
]

block = b"x" * (256 * 1024)

def attack(path, header, opening, chunked, statuses):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(30)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{header}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\n{framing}\r\n\r\n").encode()
    def piece(data):
        return (b"%x\r\n" % len(data)) + data + b"\r\n" if chunked else data
    try:
        sock.sendall(head + piece(opening))
        sent = len(opening)
        while sent < size:
            sock.sendall(piece(block))
            sent += len(block)
        if chunked:
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server may close once it has answered
    try:
        answer = sock.recv(64).decode(errors="replace")
        statuses.append(answer.split(" ")[1] if answer.startswith("HTTP/1.1") else "closed")
    except OSError:
        statuses.append("closed")
    sock.close()

baseline = rss_mb()
print(f"{uploads} connections × {size // (1024 * 1024)} MB each; resident memory before: {baseline:.0f} MB")
worst = baseline
for label, path, header, opening, chunked in scenarios:
    statuses, peak = [], [rss_mb()]
    done = threading.Event()
    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb())
            time.sleep(0.01)
    sampler = threading.Thread(target=sample)
    sampler.start()
    began = time.perf_counter()
    threads = [threading.Thread(target=attack, args=(path, header, opening, chunked, statuses)) for _ in range(uploads)]
    for thread in threads: thread.start()
    for thread in threads: thread.join()
    done.set(); sampler.join()
    worst = max(worst, peak[0])
    answers = ", ".join(f"{status} ×{statuses.count(status)}" for status in sorted(set(statuses)))
    print(f"  {label:36} peak {peak[0]:6.0f} MB  in {time.perf_counter() - began:5.1f} s  answers: {answers}")
print(f"peak resident memory: {worst:.0f} MB (target under {limit_mb} MB)")
if worst >= limit_mb:
    sys.exit(f"over the target: {worst:.0f} MB")
PY
