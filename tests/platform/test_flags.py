"""``GET /api/flags`` and ``herald flags``: defaults, per-account values, degraded without the core."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member


def herald(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "herald.cli", *argv], capture_output=True, text=True, timeout=60,
                          env=os.environ.copy())


@pytest.mark.slow  # the `herald` command as a process
async def test_flags_defaults_cli_and_resolution(dashboard, identity):
    from models.platform.flag import DEFAULTS

    owner = await signed_in_member(identity, dashboard, "flags")
    nothing = await dashboard.get("/api/flags", headers=owner.auth)
    assert nothing.status_code == 403 and nothing.json()["Error"]["Code"] == "NoTenant"
    account = await new_account(dashboard, owner, "Flagged")
    first = await dashboard.get("/api/flags", headers=owner.auth)
    assert first.status_code == 200 and first.json()["Degradado"] is False
    assert first.json()["Flags"] == DEFAULTS

    done = herald("flags", "set", account["Id"], "journeys", "on")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["Flags"]["journeys"] is True
    changed = await dashboard.get("/api/flags", headers={**owner.auth, "X-Service-Tenant": account["Id"]})
    assert changed.json()["Flags"]["journeys"] is True
    unknown = herald("flags", "set", account["Id"], "no-such-flag", "on")
    assert unknown.returncode == 1 and "unknown flag" in unknown.stderr
    back = herald("flags", "set", account["Id"], "journeys", "default")
    assert json.loads(back.stdout)["Flags"]["journeys"] is DEFAULTS["journeys"]


async def test_flags_degrade_when_the_core_is_down(start_server, identity):
    """A platform whose database does not answer: the flags route still answers 200, degraded."""
    import httpx

    from tests.fixtures.dashboard import sign_in
    from tests.fixtures.identity import make_person

    broken = start_server("platform", PLATFORM_DATABASE_URL="postgres://postgres@127.0.0.1:1/nowhere")
    async with httpx.AsyncClient(base_url=broken.url, timeout=20) as http:
        person = await make_person(identity, "degraded", login=False)
        token = (await sign_in(http, person))["Token"]
        answer = await http.get("/api/flags", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["Flags"] is None and answer.json()["Degradado"] is True
