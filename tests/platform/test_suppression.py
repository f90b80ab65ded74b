"""An opt-out in the CRM reaches the platform (PUT /internal/v1/tenants/{account}/suppressions,
written by the CRM's ``crm_journeys.sync_suppression`` job): a /v1 send of that account to that
address is then refused at accept with SuppressedAddress; opting back in lifts it."""

from __future__ import annotations

import asyncio
import secrets
import time

import httpx
import pytest

from app.http.tenant_access import TENANT_HEADER
from models.platform import Suppression
from models.platform.api_key import KeyKind
from tests.fixtures.access import grant
from tests.fixtures.harness import Process
from tests.fixtures.identity import make_person, service_headers
from tests.fixtures.platform import email, wait_status


@pytest.fixture(scope="module")
def crm_relay(services, tmp_path_factory):
    """A scheduler relaying the CRM's outbox and a worker on the ``crm`` queue."""
    log_dir = tmp_path_factory.mktemp("suppression-crm")
    env = {**services.env, "RELAY_SYSTEMS": "crm", "WORKER_THREADS": "2"}
    roles = [Process("crm-worker", ["worker", "--processes", "1", "--queues", "crm"], env, log_dir),
             Process("crm-scheduler", ["scheduler"], env, log_dir)]
    yield roles
    for role in roles:
        role.stop()


async def until(predicate, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await predicate():
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"not within {seconds} s: {what}")


async def test_a_crm_opt_out_suppresses_v1_sends_and_opting_in_lifts_it(servers, platform, make_account, pipeline,
                                                                        crm_relay):
    account = await make_account(kind=KeyKind.TEST)
    async with httpx.AsyncClient(base_url=servers("identity").url, timeout=20) as identity:
        person = await make_person(identity, "suppress")
        await grant(identity, account.tenant_id, person.id, "crm", "admin")
    headers = {**person.auth, TENANT_HEADER: account.tenant_id}
    address = f"Optout-{secrets.token_hex(3)}@Example.com"
    async with httpx.AsyncClient(base_url=servers("crm").url, timeout=30) as crm:
        contact = (await crm.post("/v1/contatos", headers=headers, json={"email": address})).json()["contato"]
        out = await crm.put(f"/v1/contatos/{contact['id']}/consentimento", headers=headers,
                            json={"recebe": False, "canal": "email"})
        assert out.status_code == 200, out.text

        async def suppressed() -> bool:
            return await Suppression.filter(tenant__public_id=account.tenant_id, channel="email",
                                            address=address.lower()).exists()

        await until(suppressed, 30, "the opt-out reached the platform")
        sent = await platform.post("/v1/emails/send", headers=account.headers, json=email(to=[address]))
        assert sent.status_code == 422 and sent.json()["Error"]["Code"] == "SuppressedAddress", sent.text

        back = await crm.put(f"/v1/contatos/{contact['id']}/consentimento", headers=headers,
                             json={"recebe": True, "canal": "email"})
        assert back.status_code == 200, back.text

        async def lifted() -> bool:
            return not await suppressed()

        await until(lifted, 30, "the opt-in lifted the suppression")
        again = await platform.post("/v1/emails/send", headers=account.headers, json=email(to=[address]))
        await wait_status(platform, account.headers, again.json()["MessageId"], "sent", 30)


async def test_the_suppression_route_keeps_the_platforms_own_rows(platform, make_account):
    account = await make_account()
    path = f"/internal/v1/tenants/{account.tenant_id}/suppressions"
    bounce = await Suppression.create(tenant_id=(await _tenant_pk(account.tenant_id)), channel="sms",
                                      address="+14155550999", reason="hard_bounce")
    put = await platform.put(path, headers=service_headers(),
                             json={"Channel": "sms", "Address": "+14155550999", "Suppressed": False})
    assert put.status_code == 200, put.text
    assert put.json()["Suppressed"] is True and await Suppression.exists(id=bounce.id)
    on = await platform.put(path, headers=service_headers(),
                            json={"Channel": "email", "Address": "A@B.example", "Suppressed": True})
    assert on.json() == {**on.json(), "Address": "a@b.example", "Suppressed": True}
    assert (await platform.put(path, headers=service_headers(), json={"Channel": "email", "Address": "a@b.example",
                                                                      "Suppressed": True})).status_code == 200
    assert await Suppression.filter(tenant__public_id=account.tenant_id, channel="email").count() == 1
    assert (await platform.put(path, json={"Channel": "email", "Address": "x@y.z", "Suppressed": True})).status_code == 401
    missing = await platform.put("/internal/v1/tenants/nobody-here/suppressions", headers=service_headers(),
                                 json={"Channel": "email", "Address": "x@y.z", "Suppressed": True})
    assert missing.status_code == 404
    assert (await platform.put(path, headers=service_headers(),
                               json={"Channel": "fax", "Address": "x", "Suppressed": True})).status_code == 400


async def _tenant_pk(public: str) -> int:
    from models.platform import Tenant

    return (await Tenant.get(public_id=public)).id
