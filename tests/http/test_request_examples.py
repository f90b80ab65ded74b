"""Every request example in every system's whole document (/internal/openapi.json) is a body the product accepts: each is
sent, as documented, to the running system with the credential its operation declares and fresh ids,
and none is refused as invalid (400 or 422). A path that names an account gets a real one (the
caller's); another id is fresh, so an operation that looks its resource up first may answer 404,
which says nothing against the body. A 401 for a password or code the example cannot know (sign-in,
re-authentication) is the credential's refusal, not the body's."""

from __future__ import annotations

import re
import secrets
import uuid

import httpx

from app.http.openapi_examples import ID_PREFIXES
from models.platform.api_key import KeyKind
from models.platform.blocklist import BlockEntry
from models.platform.scopes import SCOPES
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member, signed_in_staff
from tests.fixtures.identity import service_headers

SYSTEMS = ("platform", "identity", "crm", "pages", "runtime")
ACCOUNT_PARAMS = {"tenant_id", "tenant", "account"}
PARAM = re.compile(r"\{(\w+)\}")
REFUSED = {400, 422}
# Bodies that carry a one-time secret (a link's token, a two-factor ticket, a passkey challenge), a
# deployment's own value (the dashboard's origin) or a URL fetched from the internet (which the
# tests do not reach): no document can hold a live one. Their example is accepted but for that one
# value, and the refusal must name it (a Details key or the error code), nothing else.
NOT_STATIC = {
    ("platform", "/api/auth/verify"): "token",
    ("platform", "/api/auth/passkey/login/start"): "origin",
    ("platform", "/api/me/passkeys/iniciar"): "origin",
    ("platform", "/api/me/passkeys"): "DesafioExpirado",
    ("identity", "/v1/2fa/check"): "ticket",
    ("identity", "/v1/2fa/resend"): "ticket",
    ("identity", "/v1/auth/password/reset/confirm"): "token",
    ("identity", "/v1/auth/verify"): "token",
    ("identity", "/v1/passkeys/login"): "DesafioExpirado",
    ("identity", "/v1/passkeys/register"): "DesafioExpirado",
    ("pages", "/v1/midias/importar"): "Url",
}
LEFT: set[tuple[str, str]] = set()  # routes whose example is known to be refused (none)


def refused_for(system: str, path: str, answer: httpx.Response) -> bool:
    """Whether the answer refuses the example's body (beyond the one value NOT_STATIC allows)."""
    if answer.status_code not in REFUSED:
        return False
    allowed = NOT_STATIC.get((system, path))
    if allowed is None:
        return True
    error = answer.json().get("Error") or answer.json().get("error") or {}
    details = error.get("Details") or error.get("details") or {}
    return not (set(details) == {allowed} or (not details and (error.get("Code") or error.get("code")) == allowed))


def fresh_id(name: str) -> str:
    noun = name.removesuffix("_id").rsplit("_", 1)[-1]
    return f"{ID_PREFIXES.get(noun, 'id')}_{uuid.uuid4().hex[:24]}"


def examples(document: dict):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            media = (operation.get("requestBody") or {}).get("content", {}).get("application/json")
            if media is not None:
                yield method.upper(), path, operation, media


async def test_every_request_example_is_a_body_the_product_accepts(servers, dashboard, identity, make_account):
    urls = {system: servers(system).url for system in SYSTEMS}
    owner = await signed_in_member(identity, dashboard, "examples")
    staff = await signed_in_staff(identity, dashboard, "examples-staff")
    tenant = (await new_account(dashboard, owner, f"Examples {secrets.token_hex(3)}"))["Id"]
    key = (await make_account(scopes=tuple(SCOPES), kind=KeyKind.TEST)).key
    session = {"Authorization": f"Bearer {owner.token}", "X-Service-Tenant": tenant}
    credentials = {"apiKey": {"Authorization": f"Bearer {key}"}, "session": session, "service": service_headers()}

    refused: list[tuple] = []
    try:
        sent = await send_every_example(urls, staff, credentials, tenant, refused)
    finally:  # the blocklist example's entry is platform-wide: later tests of the process must not meet it
        await BlockEntry.filter(created_by=staff.id).delete()
    assert sent > 100
    assert not refused, "\n".join(map(str, refused))


async def send_every_example(urls, staff, credentials, tenant, refused: list[tuple]) -> int:
    """Each documented request body sent to its route; what is refused goes to ``refused``; how many were sent."""
    sent = 0
    async with httpx.AsyncClient(timeout=20) as http:
        for system in SYSTEMS:
            # The whole document: the internal routes' bodies are examples too.
            document = (await http.get(f"{urls[system]}/internal/openapi.json", headers=service_headers())).json()
            for method, path, operation, media in examples(document):
                assert "example" in media, (system, method, path)
                if (system, path) in LEFT:
                    continue
                url = PARAM.sub(lambda found: tenant if found.group(1) in ACCOUNT_PARAMS else fresh_id(found.group(1)),
                                path)
                names = [name for entry in operation.get("security", [{}]) for name in entry]
                headers = {}
                if path.startswith("/api/admin/"):
                    headers = staff.auth
                elif names:
                    headers = credentials.get(names[0], {})
                answer = await http.request(method, urls[system] + url, json=media["example"], headers=headers)
                sent += 1
                if refused_for(system, path, answer):
                    refused.append((system, method, path, answer.status_code, answer.text[:300]))
    return sent
