#!/usr/bin/env python3
"""Installs Pagefind (the site's search index) from PyPI without pip or a virtual environment.

Usage: scripts/fetch-pagefind.py DEST   (e.g. .build/pagefind/pagefind)

Downloads the pinned pagefind-bin wheel for this machine (Linux x86_64 or aarch64) through the
package index's simple API (PIP_INDEX_URL when set, else https://pypi.org/simple), checks its
SHA-256 against the one pinned here, and extracts the `pagefind` executable from it with zipfile.
Python's standard library only. Exit status 0 when DEST is in place, 1 (with a reason) otherwise.
"""

import hashlib
import html.parser
import json
import os
import platform
import sys
import tempfile
import urllib.parse
import urllib.request
import zipfile

VERSION = "1.5.2"
# The wheels of pagefind-bin 1.5.2 and their SHA-256, as PyPI lists them.
WHEELS = {
    "x86_64": (
        "pagefind_bin-1.5.2-py3-none-manylinux_2_12_x86_64.manylinux2010_x86_64.musllinux_1_1_x86_64.whl",
        "92eb3f492fc7dbf0fc68c18c78f8de44ecfb266ba64cb982e3ccc1b4bbd7203e",
    ),
    "aarch64": (
        "pagefind_bin-1.5.2-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64.whl",
        "c33f8019bb21f8b417b847efe2cb8ffbbf03ba6996a233a9bb5c764c56d76f6a",
    ),
}
MEMBER = "pagefind_bin/pagefind"
MAX_BYTES = 64 << 20


class Links(html.parser.HTMLParser):
    """The href of every <a> of a PEP 503 project page."""

    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs += [value for name, value in attrs if name == "href" and value]


def wheel_url(index, filename):
    page = index.rstrip("/") + "/pagefind-bin/"
    request = urllib.request.Request(
        page, headers={"Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.1"})
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read(MAX_BYTES)
        kind = response.headers.get("Content-Type", "")
    if "json" in kind:
        urls = [entry["url"] for entry in json.loads(body).get("files", []) if entry.get("filename") == filename]
    else:
        parser = Links()
        parser.feed(body.decode("utf-8", "replace"))
        urls = [href for href in parser.hrefs if urllib.parse.urlsplit(href).path.endswith("/" + filename)]
    if not urls:
        raise RuntimeError(f"{page} does not list {filename}")
    return urllib.parse.urljoin(page, urls[0].split("#")[0])


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    dest = sys.argv[1]
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)
    if sys.platform != "linux" or machine not in WHEELS:
        print(f"fetch-pagefind: no pinned wheel for {sys.platform} {machine}; "
              "install pagefind yourself (pip install pagefind-bin) and put it on PATH", file=sys.stderr)
        return 1
    filename, sha256 = WHEELS[machine]
    index = os.environ.get("PIP_INDEX_URL") or "https://pypi.org/simple"
    try:
        url = wheel_url(index, filename)
        with urllib.request.urlopen(url, timeout=300) as response:
            data = response.read(MAX_BYTES + 1)
    except Exception as error:  # network, HTTP or index errors: one line, no traceback
        print(f"fetch-pagefind: cannot download {filename} from {index}: {error}", file=sys.stderr)
        return 1
    if len(data) > MAX_BYTES or hashlib.sha256(data).hexdigest() != sha256:
        print(f"fetch-pagefind: {url} is not the pinned pagefind-bin {VERSION} (SHA-256 differs)", file=sys.stderr)
        return 1
    folder = os.path.dirname(os.path.abspath(dest))
    os.makedirs(folder, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=folder, delete=False) as wheel:
        wheel.write(data)
    try:
        with zipfile.ZipFile(wheel.name) as archive, tempfile.NamedTemporaryFile(dir=folder, delete=False) as out:
            with archive.open(MEMBER) as binary:
                out.write(binary.read(MAX_BYTES))
        os.chmod(out.name, 0o755)
        os.replace(out.name, dest)
    finally:
        os.unlink(wheel.name)
    print(f"installed pagefind {VERSION} ({filename}) as {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
