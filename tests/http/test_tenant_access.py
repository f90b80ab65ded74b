"""app/http/tenant_access.py against the real identity server: a session acts in an account only on
the identity server's decision; "not yours" is 404 whatever the reason, "not enough" is 403."""

from __future__ import annotations

import secrets
from contextlib import asynccontextmanager
from types import SimpleNamespace

import httpx
import pytest
from sanic import Request, Sanic
from sanic.response import json as json_response

from app.http.tenant_access import TENANT_HEADER, session_access
from tests.fixtures.access import grant, new_tenant_id
from tests.fixtures.harness import free_port
from tests.fixtures.identity import make_person


@asynccontextmanager
async def crm_like_surface(settings):
    """A real Sanic app whose /contacts needs the product ``crm`` (role ``editor`` to write)."""
    from app.http import services
    from app.http.envelope import handle_exception

    app = Sanic(f"access_{secrets.token_hex(4)}", ctx=SimpleNamespace(settings=settings))
    app.config.FALLBACK_ERROR_FORMAT = "json"
    app.config.TOUCHUP = False
    services.install(app)

    @app.get("/contacts")
    async def read(request: Request):
        access = await session_access(request, "crm")
        return json_response({"Tenant": access.tenant_id, "User": access.user_id, "Role": access.role})

    @app.post("/contacts")
    async def write(request: Request):
        access = await session_access(request, "crm", "editor")
        return json_response({"Tenant": access.tenant_id}, status=201)

    app.error_handler.add(Exception, handle_exception)
    port = free_port()
    server = await app.create_server(host="127.0.0.1", port=port, return_asyncio_server=True, access_log=False)
    await server.startup()
    await server.before_start()
    await server.after_start()
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=20) as http:
            yield http
    finally:
        await server.before_stop()
        server.close()
        await server.wait_closed()
        await server.after_stop()


@pytest.fixture
async def surface(settings, identity_url):
    async with crm_like_surface(settings) as http:
        yield http


async def test_a_granted_session_acts_in_its_account_and_nowhere_else(surface, http):
    reader, outsider = await make_person(http, "reader"), await make_person(http, "outsider")
    tenant, other = new_tenant_id(), new_tenant_id()
    await grant(http, tenant, reader.id, "crm", "leitor")
    await grant(http, other, outsider.id, "crm", "admin")

    read = await surface.get("/contacts", headers={**reader.auth, TENANT_HEADER: tenant})
    assert read.status_code == 200, read.text
    assert read.json() == {"Tenant": tenant, "User": reader.id, "Role": "leitor"}

    # Someone else's account, an unknown one and a malformed id: one and the same 404.
    answers = [await surface.get("/contacts", headers={**reader.auth, TENANT_HEADER: t})
               for t in (other, new_tenant_id(), "../etc")]
    assert {a.status_code for a in answers} == {404}
    assert len({a.json()["Error"]["Message"] for a in answers}) == 1

    # In the account, but a reader may not write: 403, not 404.
    refused = await surface.post("/contacts", headers={**reader.auth, TENANT_HEADER: tenant})
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "PermissionDenied"


async def test_the_account_header_is_required_and_the_session_checked_first(surface, http):
    person = await make_person(http, "header")
    missing = await surface.get("/contacts", headers=person.auth)
    assert missing.status_code == 400 and TENANT_HEADER in missing.json()["Error"]["Message"]
    anonymous = await surface.get("/contacts", headers={TENANT_HEADER: new_tenant_id()})
    assert anonymous.status_code == 401


async def test_a_product_not_subscribed_is_404_like_any_foreign_account(surface, http):
    person = await make_person(http, "unsubscribed")
    tenant = new_tenant_id()
    await grant(http, tenant, person.id, "paginas")  # pages, not crm
    answer = await surface.get("/contacts", headers={**person.auth, TENANT_HEADER: tenant})
    assert answer.status_code == 404
