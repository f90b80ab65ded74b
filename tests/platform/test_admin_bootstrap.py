"""`herald staff add|remove|list` and the first operator `herald up` makes, on an isolated platform
database (tests/fixtures/stack.py), through the real commands as subprocesses."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from tests.fixtures.harness import ROOT
from tests.fixtures.stack import Stack

pytestmark = pytest.mark.slow  # an isolated platform and each command as a process of its own

FIRST_OPERATOR = ("import asyncio\nfrom herald.bootstrap import first_operator\nfrom kit.settings import "
                  "load_settings\nfor line in asyncio.run(first_operator(load_settings())): print(line)\n")


def run_first_operator(stack: Stack) -> str:
    done = subprocess.run([sys.executable, "-c", FIRST_OPERATOR], cwd=ROOT, capture_output=True, text=True,
                          env={**stack.env, "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


async def test_staff_commands_and_the_first_operator(services, tmp_path, servers):
    identity_url = servers("identity").url
    async with Stack(services, tmp_path) as stack:
        assert stack.herald("staff", "list") == {"Staff": []}
        shown = run_first_operator(stack)
        assert "operator@" in shown and "/api/admin/me" in shown
        email, password = shown.splitlines()[0].split(": ", 1)[1].split()
        staff = stack.herald("staff", "list")["Staff"]
        assert len(staff) == 1 and staff[0]["UserId"].startswith("usr_") and staff[0]["AddedBy"] == "cli"
        async with httpx.AsyncClient(base_url=identity_url, timeout=20) as http:
            login = await http.post("/v1/auth/login", json={"email": email, "password": password})
        assert login.status_code == 200, login.text
        assert login.json()["user"]["id"] == staff[0]["UserId"]
        assert run_first_operator(stack) == ""  # only while nobody is staff

        added = stack.herald("staff", "add", "Someone@Example.com")["Staff"]
        assert added["Email"] == "someone@example.com" and added["UserId"] is None
        assert stack.herald("staff", "add", "someone@example.com")["Staff"]["Email"] == "someone@example.com"
        assert len(stack.herald("staff", "list")["Staff"]) == 2
        assert stack.herald("staff", "remove", "someone@example.com")["Removed"] is True
        assert stack.herald("staff", "remove", "someone@example.com")["Removed"] is False
        refused = subprocess.run([sys.executable, "-m", "herald.cli", "staff", "add", "nobody"], cwd=ROOT,
                                 capture_output=True, text=True, env={**stack.env, "PATH": "/usr/bin:/bin"},
                                 timeout=60)
        assert refused.returncode == 1 and "neither" in refused.stderr
