"""Usage (issue 17, item 10): ``GET /v1/uso`` answers the CRM's local counts plus the platform's
quota and counters (its internal route, with the service credential); a malformed period is 422;
with the platform down the answer is still 200 with ``core_disponivel`` false."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from app.platform.tenant.service import create_tenant
from kit.ids import public_id
from models.platform.usage import increment, period_of
from tests.fixtures.identity import service_headers
from tortoise import connections


async def test_usage_joins_local_counts_and_the_platforms_quota(crm, act, servers):
    servers("platform")
    tenant = await create_tenant(f"CRM usage {public_id('t', 3)}", monthly_quota=5000, plan="pro")
    await increment(connections.get("platform"), tenant.id, period_of(), emails_sent=7, sms_sent=2)
    owner = await act("leitor", tenant=tenant.public_id)
    admin = await act("admin", tenant=tenant.public_id)
    for i in range(3):
        await crm.post("/v1/contatos", headers=admin.headers, json={"email": f"u{i}-{secrets.token_hex(3)}@example.com"})
    await crm.post("/v1/listas", headers=admin.headers, json={"nome": "Uso"})

    answer = await crm.get("/v1/uso", headers=owner.headers)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["periodo"] == datetime.now(timezone.utc).strftime("%Y-%m") and body["core_disponivel"] is True
    assert body["local"]["contatos"] == 3 and body["local"]["contatos_criados"] == 3 and body["local"]["listas"] == 1
    assert body["core"]["cota_mensal"] == 5000 and body["core"]["plano"] == "pro"
    assert (body["core"]["emails_enviados"], body["core"]["sms_enviados"]) == (7, 2)

    past = (await crm.get("/v1/uso", headers=owner.headers, params={"periodo": "2020-01"})).json()
    assert past["periodo"] == "2020-01" and past["local"]["contatos_criados"] == 0 and past["local"]["contatos"] == 3
    assert past["core"]["emails_enviados"] == 0
    for bad in ("2024-13", "2024-1", "abc", "2024-01-01"):
        refused = await crm.get("/v1/uso", headers=owner.headers, params={"periodo": bad})
        assert refused.status_code == 422 and "periodo" in refused.json()["Error"]["Details"], bad
    assert (await crm.get("/v1/uso", headers=owner.headers, params={"mes": "2024-01"})).status_code in (400, 422)

    # An account the platform does not know still answers its local counts.
    stranger = await act("leitor")
    unknown = (await crm.get("/v1/uso", headers=stranger.headers)).json()
    assert unknown["core_disponivel"] is True and unknown["core"] is None and unknown["local"]["contatos"] == 0


async def test_the_platforms_internal_usage_route(servers):
    import httpx

    tenant = await create_tenant(f"CRM usage {public_id('t', 3)}", monthly_quota=None)
    async with httpx.AsyncClient(base_url=servers("platform").url, timeout=10) as platform:
        path = f"/internal/v1/tenants/{tenant.public_id}/usage"
        assert (await platform.get(path)).status_code == 401
        ok = await platform.get(path, headers=service_headers(), params={"period": "2021-02"})
        assert ok.status_code == 200, ok.text
        assert ok.json()["Usage"]["Period"] == "2021-02" and ok.json()["Quota"]["MonthlyQuota"] is None
        assert (await platform.get(path, headers=service_headers(), params={"period": "21-02"})).status_code == 422
        assert (await platform.get("/internal/v1/tenants/acc_0000000000000000/usage",
                                   headers=service_headers())).status_code == 404


async def test_platform_down_answers_200_with_core_unavailable(act, start_server, identity_url):
    import httpx

    crm = start_server("crm", PLATFORM_URL="http://127.0.0.1:9")  # nothing listens there
    owner = await act("leitor")
    async with httpx.AsyncClient(base_url=crm.url, timeout=30) as http:
        answer = await http.get("/v1/uso", headers=owner.headers)
    assert answer.status_code == 200, answer.text
    assert answer.json()["core_disponivel"] is False and answer.json()["core"] is None
    assert answer.json()["local"]["contatos"] == 0
