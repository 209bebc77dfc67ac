#!/usr/bin/env python3
"""qemu/imds.py PROVIDER FAULT LOG USERDATA — one connection to an imitation of a cloud's
instance metadata service, on stdin/stdout (QEMU's guestfwd=...-cmd: starts one per TCP
connection the guest opens to 169.254.169.254:80; qemu/run --cloud). Nothing here reaches a
network: it answers the guest from the file USERDATA only.

PROVIDER: aws (IMDSv2: PUT /latest/api/token with X-aws-ec2-metadata-token-ttl-seconds, then
GET /latest/user-data with X-aws-ec2-metadata-token), gce (GET
/computeMetadata/v1/instance/attributes/isobench with Metadata-Flavor: Google; the answer
carries Metadata-Flavor: Google), azure (GET /metadata/instance/compute/userData?...
&format=text with Metadata: true; base64), oci (GET /opc/v2/instance/metadata/user_data with
Authorization: Bearer Oracle; base64). A request without the provider's header is refused as
the provider does (401, 403 or 400); another path is 404; USERDATA absent or empty: 404
(Azure: an empty 200).
FAULT: none; slow (the answer after 10 s, past the guest's timeout); garbage (bytes that are
no HTTP answer). LOG: each request is appended as one line, "METHOD PATH header=value ...".
"""
import base64
import os
import sys
import time

TOKEN = "isobench-imitation-token"


def read_request(f):
    """The request line and headers (lower-case names) from f."""
    line = f.readline().decode("latin-1").strip()
    headers = {}
    while True:
        h = f.readline().decode("latin-1")
        if h in ("\r\n", "\n", ""):
            break
        name, _, value = h.partition(":")
        headers[name.strip().lower()] = value.strip()
    return line, headers


def answer(out, status, body=b"", extra=()):
    reason = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
              404: "Not Found"}[status]
    head = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {len(body)}",
            "Content-Type: text/plain", "Connection: close", *extra]
    out.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)


def user_data(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def respond(provider, method, path, h, data):
    """(status, body, extra headers) of the provider for this request."""
    if provider == "aws":
        if method == "PUT" and path == "/latest/api/token":
            if "x-aws-ec2-metadata-token-ttl-seconds" not in h:
                return 400, b"", ()
            return 200, TOKEN.encode(), ()
        if method == "GET" and path == "/latest/user-data":
            if h.get("x-aws-ec2-metadata-token") != TOKEN:
                return 401, b"", ()
            return (200, data, ()) if data else (404, b"", ())
    elif provider == "gce":
        if method == "GET" and path == "/computeMetadata/v1/instance/attributes/isobench":
            if h.get("metadata-flavor") != "Google":
                return 403, b"", ()
            flavor = ("Metadata-Flavor: Google",)
            return (200, data, flavor) if data else (404, b"", flavor)
    elif provider == "azure":
        if method == "GET" and path.startswith("/metadata/instance/compute/userData?") and \
                "format=text" in path:
            if h.get("metadata") != "true":
                return 400, b"", ()
            return 200, base64.b64encode(data), ()
    elif provider == "oci":
        if method == "GET" and path == "/opc/v2/instance/metadata/user_data":
            if h.get("authorization") != "Bearer Oracle":
                return 401, b"", ()
            return (200, base64.b64encode(data), ()) if data else (404, b"", ())
    return 404, b"", ()


def main():
    provider, fault, log, data_path = sys.argv[1:5]
    fin, fout = sys.stdin.buffer, sys.stdout.buffer
    line, h = read_request(fin)
    parts = line.split()
    method, path = (parts[0], parts[1]) if len(parts) >= 2 else ("-", "-")
    with open(log, "a") as f:
        shown = " ".join(f"{k}={v}" for k, v in sorted(h.items())
                         if k not in ("user-agent", "accept", "connection", "content-length"))
        f.write(f"{method} {path} {shown}\n")
    if fault == "slow":
        time.sleep(10)
    if fault == "garbage":
        fout.write(b"\x00\x17garbage, not HTTP\xff\r\n\r\n")
    else:
        status, body, extra = respond(provider, method, path, h, user_data(data_path))
        answer(fout, status, body, extra)
    fout.flush()
    os.close(1)


if __name__ == "__main__":
    main()
