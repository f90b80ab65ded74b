"""`herald credentials reset`: a new first-operator password and a new demo key, issued rather than
shown again, on an isolated platform and identity (tests/fixtures/stack.py) with an identity server
of their own, through the real command as a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest

from tests.fixtures.harness import ROOT, Server
from tests.fixtures.stack import Stack

pytestmark = pytest.mark.slow  # databases, an identity server and each command as processes of their own

BOOTSTRAP = ("import asyncio\nfrom herald.bootstrap import first_operator, first_start\nfrom kit.settings import "
             "load_settings\nsettings = load_settings()\n"
             "for line in asyncio.run(first_start(settings)) + asyncio.run(first_operator(settings)): print(line)\n")


def run(stack: Stack, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "herald.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**stack.env, "PATH": "/usr/bin:/bin"}, timeout=120)


def first_start(stack: Stack) -> tuple[str, str]:
    """What the first `herald up` prints: the demo key and the first operator's password."""
    (stack.tmp / "var").mkdir(exist_ok=True)  # herald up's ./var/, where the first start leaves its marker
    done = subprocess.run([sys.executable, "-c", BOOTSTRAP], cwd=ROOT, capture_output=True, text=True,
                          env={**stack.env, "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    demo_key = lines[1].strip()
    password = next(line for line in lines if line.startswith("First operator")).split()[-1]
    return demo_key, password


async def test_reset_issues_a_new_password_and_demo_key_and_the_old_ones_stop(services, tmp_path):
    async with Stack(services, tmp_path, systems=("platform", "identity")) as stack:
        # Nothing to reset before the first start: refused, nothing made.
        for flag, says in (("--demo-key", "no demo tenant"), ("--operator", "no first operator")):
            refused = run(stack, "credentials", "reset", flag)
            assert refused.returncode == 1 and refused.stdout == "" and says in refused.stderr, refused.stderr
        nothing = run(stack, "credentials", "reset")
        assert nothing.returncode == 2 and "--operator, --demo-key or both" in nothing.stderr

        demo_key, password = first_start(stack)
        assert demo_key.startswith("sk_test_")
        identity = Server("identity", stack.env, tmp_path / "logs")
        try:
            async with httpx.AsyncClient(base_url=identity.url, timeout=20) as http:
                login = await http.post("/v1/auth/login", json={"email": "operator@sandbox.herald.test",
                                                                "password": password})
                assert login.status_code == 200, login.text
                session = {"Authorization": f"Bearer {login.json()['token']}"}
                assert (await http.get("/v1/auth/validate", headers=session)).status_code == 200

                reset = run(stack, "credentials", "reset", "--operator", "--demo-key")
                assert reset.returncode == 0, reset.stderr
                issued = json.loads(reset.stdout)
                operator, demo = issued["Operator"], issued["DemoKey"]
                assert operator["Email"] == "operator@sandbox.herald.test" and operator["Staff"] is True
                assert operator["Password"] != password and operator["SessionsEnded"] == 1

                # The old password and its session no longer work; the new password does.
                assert (await http.get("/v1/auth/validate", headers=session)).status_code == 401
                old = await http.post("/v1/auth/login", json={"email": operator["Email"], "password": password})
                assert old.status_code == 401, old.text
                new = await http.post("/v1/auth/login", json={"email": operator["Email"],
                                                              "password": operator["Password"]})
                assert new.status_code == 200, new.text
                assert new.json()["user"]["id"] == operator["UserId"]
        finally:
            identity.stop()

        # A new demo key, the old one revoked; the tenant's other keys are left alone.
        assert demo["Key"].startswith("sk_test_") and demo["Key"] != demo_key and demo["Mode"] == "test"
        assert "email:send" in demo["Scopes"]
        own = stack.herald("key", "create", "--tenant", demo["TenantId"], "--scopes", "email:send", "--name", "mine")
        keys = {key["KeyId"]: key for key in stack.herald("key", "list", demo["TenantId"])["Keys"]}
        assert len(demo["Revoked"]) == 1 and keys[demo["Revoked"][0]]["RevokedAt"] is not None
        assert keys[demo["Revoked"][0]]["Prefix"] == demo_key[:12]
        assert keys[demo["KeyId"]]["RevokedAt"] is None and keys[own["KeyId"]]["RevokedAt"] is None

        again = run(stack, "credentials", "reset", "--demo-key")
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["DemoKey"]["Revoked"] == [demo["KeyId"]]
        assert "Operator" not in json.loads(again.stdout)
        active = stack.herald("key", "list", demo["TenantId"], "--active")["Keys"]
        assert {key["KeyId"] for key in active} == {json.loads(again.stdout)["DemoKey"]["KeyId"], own["KeyId"]}
