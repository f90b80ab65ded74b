"""Authorization decisions, grants, subscriptions and recent decisions (service credential)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

from tests.fixtures.harness import ROOT
from tests.fixtures.identity import service_headers


@pytest.fixture
def tenant() -> str:
    return f"acc_{secrets.token_hex(8)}"


async def decide(client, **body):
    response = await client.post("/v1/authz/decide", json=body, headers=service_headers())
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer.pop("RequestId").startswith("req_")
    return answer


async def test_service_routes_need_the_service_credential(client, tenant):
    for method, path in (("GET", "/v1/authz/produtos"), ("POST", "/v1/authz/decide"),
                         ("GET", f"/v1/tenants/{tenant}/acessos"), ("GET", f"/v1/tenants/{tenant}/produtos"),
                         ("GET", f"/v1/tenants/{tenant}/authz/decisoes")):
        response = await client.request(method, path)
        assert response.status_code == 401, path


async def test_catalog_declares_roles(client):
    body = (await client.get("/v1/authz/produtos", headers=service_headers())).json()
    products = {p["produto"]: p for p in body["produtos"]}
    assert "mensageria" in products
    assert {"papel": "admin", "nivel": 30} in products["mensageria"]["papeis"]


async def test_grant_decide_revoke(client, tenant, people):
    user = people["plain"].id
    headers = service_headers()
    denied = await decide(client, sub=user, tenant=tenant, produto="crm")
    assert denied == {"permitido": False, "motivo": "produto_nao_assinado", "papel": None, "nivel": None}

    subscribed = await client.post(f"/v1/tenants/{tenant}/produtos", json={"produto": "crm", "status": "ativo"},
                                   headers=headers)
    assert subscribed.status_code == 200
    assert (await decide(client, sub=user, tenant=tenant, produto="crm"))["motivo"] == "sem_acesso"

    undeclared = await client.post(f"/v1/tenants/{tenant}/acessos", headers=headers,
                                   json={"user_id": user, "produto": "crm", "papel": "imperador"})
    assert undeclared.status_code == 422

    granted = await client.post(f"/v1/tenants/{tenant}/acessos", headers=headers,
                                json={"user_id": user, "produto": "crm", "papel": "editor"})
    assert granted.status_code == 201
    allowed = await decide(client, sub=user, tenant=tenant, produto="crm")
    assert allowed == {"permitido": True, "motivo": "permitido", "papel": "editor", "nivel": 20}
    above = await decide(client, sub=user, tenant=tenant, produto="crm", papel="admin")
    assert above["permitido"] is False and above["motivo"] == "papel_insuficiente"

    listed = (await client.get(f"/v1/tenants/{tenant}/acessos", headers=headers)).json()["acessos"]
    assert [(g["user_id"], g["produto"], g["papel"]) for g in listed] == [(user, "crm", "editor")]
    mine = (await client.get("/v1/authz/eu", params={"tenant": tenant}, headers=people["plain"].auth)).json()
    assert mine["acessos"][0]["produto"] == "crm"

    for _ in range(2):  # idempotent
        revoked = await client.delete(f"/v1/tenants/{tenant}/acessos/{user}/crm", headers=headers)
        assert revoked.status_code == 204
    assert (await decide(client, sub=user, tenant=tenant, produto="crm"))["motivo"] == "sem_acesso"

    recent = (await client.get(f"/v1/tenants/{tenant}/authz/decisoes", params={"negadas": "true", "limite": "2"},
                               headers=headers)).json()["decisoes"]
    assert len(recent) == 2 and all(d["permitido"] is False for d in recent)
    everything = (await client.get(f"/v1/tenants/{tenant}/authz/decisoes", headers=headers)).json()["decisoes"]
    assert any(d["permitido"] for d in everything)


async def test_database_error_is_503_never_a_deny(start_server, services):
    """A server whose database disappears under it answers 503 to a decision, not a deny."""
    import asyncpg
    import httpx

    from kit.settings import replace_database

    name = f"herald_t{services.run_id}_identity_outage"
    url = replace_database(services.env["DATABASE_URL"], name)
    env = {**os.environ, **services.env, "IDENTITY_DATABASE_URL": url}
    migrated = subprocess.run([sys.executable, "-m", "herald.cli", "migrate", "identity"], env=env, cwd=ROOT,
                              capture_output=True, timeout=120)
    assert migrated.returncode == 0, migrated.stderr.decode()[-2000:]
    server = start_server("identity", IDENTITY_DATABASE_URL=url)
    admin = await asyncpg.connect(replace_database(services.env["DATABASE_URL"], "postgres"))
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
            body = {"sub": "usr_x", "tenant": "acc_x", "produto": "crm"}
            before = await http.post("/v1/authz/decide", json=body, headers=service_headers())
            assert before.status_code == 200 and before.json()["permitido"] is False
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            after = await http.post("/v1/authz/decide", json=body, headers=service_headers())
            assert after.status_code == 503, after.text
            assert after.json()["error"]["code"] == "ServiceUnavailable"
            assert "permitido" not in after.text
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
