"""Schemathesis against each running system, from the system's own whole document
(/internal/openapi.json, read with the service credential): no 5xx, every
answer in the description (status code, content type, body schema), and no operation that
declares a credential answering without one (``ignored_auth``).

Bounded for ``make test`` (5 examples per operation, about 75 s in all); ``make fuzz`` runs the
same with HERALD_FUZZ_SCALE (default 20) times the examples and the time.
"""

from __future__ import annotations

import base64
import hashlib
import html
import os
import re
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import pytest

from models.platform.scopes import SCOPES
from tests.fixtures.identity import make_person, service_headers

pytestmark = pytest.mark.slow  # fuzzing: Schemathesis as a subprocess against every running system

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,ignored_auth"
SCALE = int(os.environ.get("HERALD_FUZZ_SCALE", "1"))  # `make fuzz` sets 20
EXAMPLES = 5 * SCALE
# The OAuth/OIDC endpoints (forms, redirects, HTML pages, RFC 6749 {error, error_description}),
# fuzzed with an OAuth access token of a real code flow (test_identity_oauth).
OAUTH = r"^/(authorize|token|userinfo|logout|\.well-known/.*)$"
OAUTH_LOGOUT = "^/logout$"  # ends the token's session: fuzzed last, with a token of its own
REDIRECT_URI = "http://127.0.0.1:9/callback"
ASSETS = "^/docs/assets/"  # the renderer's files: checked by tests/http/test_openapi.py
# Logging out would revoke the session the run authenticates with, leaving only 401s to check.
SESSION_ENDS = "^/v1/auth/logout$"
SERVICE_ROUTES = "^/v1/(authz/|tenants/|clients|auth/keys/)"


def fuzz(url: str, *headers: str, seconds: int, exclude: tuple[str, ...] = (), include: str | None = None) -> None:
    exclude = (ASSETS, *exclude)
    # The whole document, /internal/* routes too (the public /openapi.json leaves them out): every run
    # covers what the system serves, whoever it fuzzes as.
    document = httpx.get(f"{url}/internal/openapi.json", headers=service_headers(), timeout=30)
    assert document.status_code == 200, document.text
    argv = [str(SCHEMATHESIS), "run", "openapi.json", "--url", url, "--checks", CHECKS, "--max-examples", str(EXAMPLES),
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
        Path(scratch, "openapi.json").write_bytes(document.content)
        run = subprocess.run(argv, capture_output=True, text=True, timeout=seconds * SCALE + 120, cwd=scratch)
    if os.environ.get("HERALD_FUZZ_LOG"):  # the whole report, for `make fuzz`
        with open(os.environ["HERALD_FUZZ_LOG"], "a") as log:
            log.write(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-12000:] + run.stderr[-2000:]


@pytest.mark.parametrize("system", ["crm", "pages", "runtime", "mail"])
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


async def access_token(http: httpx.AsyncClient) -> str:
    """An OAuth access token, the way a client gets one: a registered client, the sign-in page of
    /authorize with PKCE, the password step, then the code at /token."""
    client = await http.post("/v1/clients", headers=service_headers(), json={
        "name": "Fuzz", "redirect_uris": [REDIRECT_URI], "post_logout_redirect_uris": [REDIRECT_URI]})
    assert client.status_code == 201, client.text
    client_id = client.json()["client"]["client_id"]
    person = await make_person(http, "fuzz-oauth", login=False)
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    page = await http.get("/authorize", params={
        "response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT_URI, "scope": "openid email profile",
        "state": "s", "code_challenge": challenge, "code_challenge_method": "S256"})
    blob = re.search(r'name="request" value="([^"]*)"', page.text)
    assert page.status_code == 200 and blob, page.text[:300]
    signed_in = await http.post("/authorize", data={"request": html.unescape(blob.group(1)),
                                                    "step": "password", "email": person.email,
                                                    "password": person.password})
    assert signed_in.status_code == 303, signed_in.text[:300]
    code = httpx.URL(signed_in.headers["location"]).params["code"]
    tokens = await http.post("/token", data={"grant_type": "authorization_code", "client_id": client_id, "code": code,
                                             "redirect_uri": REDIRECT_URI, "code_verifier": verifier})
    assert tokens.status_code == 200, tokens.text
    return tokens.json()["access_token"]


async def test_identity_oauth(servers):
    """Discovery, JWKS, /authorize (HTML pages and redirects), /token (forms), /userinfo and
    /logout, with a real access token (a /logout that ends its session leaves 401s, described)."""
    url = servers("identity").url
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        token, ending = await access_token(http), await access_token(http)
    fuzz(url, f"Authorization: Bearer {token}", seconds=15, include=OAUTH, exclude=(OAUTH_LOGOUT,))
    fuzz(url, f"Authorization: Bearer {ending}", seconds=12, include=OAUTH_LOGOUT)


def test_identity_service_routes(servers, services):
    fuzz(servers("identity").url, f"Authorization: Bearer {services.env['SERVICE_TOKEN']}", seconds=20,
         include=SERVICE_ROUTES)
