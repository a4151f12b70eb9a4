"""A pytest fixture that runs the loanctl sandbox for the whole test session.

`loanctl sandbox start --detach --port 0 -o json` starts it in the background on a free port and
prints one JSON object: the URL, the demo organisation's API key, its product id and the control
key (for GET /__sandbox/requests). The fixture stops it at the end of the session.

LOANCTL names the command to run (default: loanctl on PATH), e.g. LOANCTL="npx loanctl".
"""

import json
import os
import shlex
import subprocess
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import pytest


def loanctl(*args):
    command = shlex.split(os.environ.get("LOANCTL", "loanctl"))
    return subprocess.run(command + list(args), capture_output=True, text=True, check=True)


class Sandbox:
    def __init__(self, started):
        self.url = started["url"]
        self.api_key = started["api_key"]
        self.product_id = started["product_id"]
        self.control_key = started["control_key"]

    def call(self, method, path, body=None, headers=None):
        """An API call with the demo organisation's key: (HTTP status, envelope or text)."""
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "Authorization": "Bearer " + self.api_key,
                "Content-Type": "application/json",
                **(headers or {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            try:
                return error.code, json.loads(text)
            except ValueError:
                return error.code, text

    def requests(self, **match):
        """What the sandbox received, oldest first: method, path (a glob), status, since."""
        query = urllib.parse.urlencode(match)
        request = urllib.request.Request(
            self.url + "/__sandbox/requests?" + query,
            headers={"Authorization": "Bearer " + self.control_key},
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read())["data"]


@pytest.fixture(scope="session")
def sandbox():
    data_dir = tempfile.mkdtemp(prefix="loanctl-pytest-")
    started = loanctl(
        "sandbox", "start", "--detach", "--port", "0", "--no-profile", "--data-dir", data_dir, "-o", "json"
    )
    try:
        yield Sandbox(json.loads(started.stdout))
    finally:
        loanctl("sandbox", "stop", "--data-dir", data_dir)
