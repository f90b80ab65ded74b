"""Schemathesis against each running system, from the system's own /openapi.json: no 5xx, every
answer in the description (status code, content type, body schema), and no operation that
declares a credential answering without one (``ignored_auth``).

Bounded for ``make test`` (5 examples per operation, about 75 s in all); ``make fuzz`` runs the
same with HERALD_FUZZ_SCALE (default 20) times the examples and the time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import pytest

from models.platform.scopes import SCOPES
from tests.fixtures.identity import make_person

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,ignored_auth"
SCALE = int(os.environ.get("HERALD_FUZZ_SCALE", "1"))  # `make fuzz` sets 20
EXAMPLES = 5 * SCALE
# The OAuth browser and token endpoints speak RFC 6749/OIDC (forms, redirects, HTML pages and
# {error, error_description}); they are described, but their answers are not fuzzed yet.
OAUTH = "^/(authorize|token|userinfo|logout)$"
ASSETS = "^/docs/assets/"  # the renderer's files: checked by tests/http/test_openapi.py
# Logging out would revoke the session the run authenticates with, leaving only 401s to check.
SESSION_ENDS = "^/v1/auth/logout$"
SERVICE_ROUTES = "^/v1/(authz/|tenants/|clients|auth/keys/)"


def fuzz(url: str, *headers: str, seconds: int, exclude: tuple[str, ...] = (), include: str | None = None) -> None:
    exclude = (ASSETS, *exclude)
    argv = [str(SCHEMATHESIS), "run", f"{url}/openapi.json", "--checks", CHECKS, "--max-examples", str(EXAMPLES),
            "--max-time", str(seconds * SCALE), "--workers", "1", "--request-timeout", "10",
            "--phases", "examples,coverage,fuzzing", "--suppress-health-check", "all", "--no-color"]
    # make test: the same cases on every run (a red suite is a finding, not luck); make fuzz: new ones.
    argv += ["--generation-deterministic"] if SCALE == 1 else []
    if exclude:  # one option: repeated, only one of them would apply
        argv += ["--exclude-path-regex", "|".join(exclude)]
    if include:
        argv += ["--include-path-regex", include]
    for header in headers:
        argv += ["-H", header]
    with tempfile.TemporaryDirectory() as scratch:  # Schemathesis keeps its example database in the cwd
        run = subprocess.run(argv, capture_output=True, text=True, timeout=seconds * SCALE + 120, cwd=scratch)
    if os.environ.get("HERALD_FUZZ_LOG"):  # the whole report, for `make fuzz`
        with open(os.environ["HERALD_FUZZ_LOG"], "a") as log:
            log.write(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-12000:] + run.stderr[-2000:]


@pytest.mark.parametrize("system", ["crm", "pages", "runtime"])
def test_without_credentials(servers, system):
    """Every route of these systems answers an anonymous or forged caller within its description.
    Their gates ask the identity server (sessions) and the platform (API keys), so both run; the
    authenticated runs are each system's own (tests/crm/test_fuzz_crm.py, tests/pages/...)."""
    servers("identity"), servers("platform")
    fuzz(servers(system).url, seconds=5)


async def test_platform(servers, make_account):
    servers("identity")  # the platform's /api/auth routes are the identity server's, over HTTP
    account = await make_account(scopes=tuple(SCOPES))
    fuzz(servers("platform").url, f"Authorization: Bearer {account.key}", seconds=25)


async def test_identity(servers):
    url = servers("identity").url
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        person = await make_person(http, "fuzz")
    fuzz(url, f"Authorization: Bearer {person.token}", seconds=20,
         exclude=(OAUTH, SESSION_ENDS, SERVICE_ROUTES))


def test_identity_service_routes(servers, services):
    fuzz(servers("identity").url, f"Authorization: Bearer {services.env['SERVICE_TOKEN']}", seconds=10,
         include=SERVICE_ROUTES)
