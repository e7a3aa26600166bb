"""Fetches files from http-file-server --compress with http.client (no decoding of its own) and
checks each body decodes, with Python's brotli and zstandard (and gzip), to the file's bytes.

usage: compressed_file_client.py PORT DIR NAME...   prints one line per fetch, then ALL OK
"""
import gzip
import http.client
import os
import sys

import brotli
import zstandard


def decode(coding, body):
    if coding == "br":
        return brotli.decompress(body)
    if coding == "zstd":
        # A streamed response is one frame without a content size: read it as a stream.
        return zstandard.ZstdDecompressor().decompressobj().decompress(body)
    if coding == "gzip":
        return gzip.decompress(body)
    return body


def main():
    port, root, names = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)  # one keep-alive connection
    for name in names:
        want = open(os.path.join(root, name), "rb").read()
        for coding in ("br", "zstd", "gzip"):
            conn.request("GET", "/" + name, headers={"Accept-Encoding": coding + ", identity;q=0.1"})
            r = conn.getresponse()
            body = r.read()
            got = r.getheader("Content-Encoding")
            if r.status != 200 or got != coding:
                sys.exit(f"{name} {coding}: status {r.status}, content-encoding {got}")
            if "accept-encoding" not in (r.getheader("Vary") or "").lower():
                sys.exit(f"{name} {coding}: no Vary: accept-encoding")
            if decode(coding, body) != want:
                sys.exit(f"{name} {coding}: decodes to other bytes")
            print(f"{name} {coding} {len(body)}/{len(want)}")
    print("ALL OK")


main()
