"""Retention end to end: a real scheduler relaying the CRM's outbox and a real worker on the ``crm``
queue. Setting a 1-day policy anonymizes the account's older contacts with no direct call, and
erases their copies: delivery payloads in the CRM, form submissions and leads in the real runtime."""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import datetime, timezone

import pytest

from models.crm import Contact, ContactErasure, CrmDelivery
from models.crm.delivery import open_payload
from models.runtime.lead import Submission
from tests.fixtures.harness import Process
from tests.fixtures.webhooks import receiver  # noqa: F401
from tests.runtime.test_retention import seed


@pytest.fixture(scope="module")
def crm_pipeline(services, tmp_path_factory):
    log_dir = tmp_path_factory.mktemp("crm-pipeline")
    env = {**services.env, "RELAY_SYSTEMS": "crm", "WORKER_THREADS": "2"}
    roles = [Process("crm-worker", ["worker", "--processes", "1", "--queues", "crm"], env, log_dir),
             Process("crm-scheduler", ["scheduler"], env, log_dir)]
    yield roles
    for role in roles:
        role.stop()


async def test_a_policy_anonymizes_old_contacts_through_relay_and_worker(crm, act, crm_pipeline):
    owner = await act("admin")
    tag = secrets.token_hex(3)
    old = (await crm.post("/v1/contatos", headers=owner.headers,
                          json={"email": f"aged-{tag}@example.com", "nome": "Antigo"})).json()["contato"]
    new = (await crm.post("/v1/contatos", headers=owner.headers,
                          json={"email": f"fresh-{tag}@example.com"})).json()["contato"]
    await Contact.filter(public_id=old["id"]).update(created_at=datetime(2024, 1, 1, tzinfo=timezone.utc))

    assert (await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": 1})).status_code == 200
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        row = await Contact.get(public_id=old["id"])
        if row.anonymized_at is not None:
            break
        await asyncio.sleep(0.3)
    else:
        logs = "\n".join(role.log.read_text()[-2000:] for role in crm_pipeline)
        raise AssertionError(f"not anonymized within 60 s:\n{logs}")
    body = (await crm.get(f"/v1/contatos/{old['id']}", headers=owner.headers)).json()["contato"]
    assert (body["email"], body["nome"]) == (None, None)
    assert (await crm.get(f"/v1/contatos/{new['id']}", headers=owner.headers)).json()["contato"]["email"]


async def test_retention_erases_the_contacts_copies_in_deliveries_and_the_runtime(crm, act, crm_pipeline, servers,
                                                                                  receiver):  # noqa: F811
    """The runtime is the real server the CRM worker calls (RUNTIME_URL, service credential)."""
    servers("identity")
    servers("runtime")
    owner = await act("admin")
    made = await crm.post("/v1/destinos", headers=owner.headers,
                          json={"url": receiver.url, "eventos": ["contact.created"]})
    assert made.status_code == 201, made.text
    tag = secrets.token_hex(3)
    email, kept_email = f"aged-{tag}@example.com", f"fresh-{tag}@example.com"
    old = (await crm.post("/v1/contatos", headers=owner.headers, json={
        "email": email, "telefone": "+5511977776666", "nome": "Antiga", "atributos": {"plano": "ouro"}}
    )).json()["contato"]
    new = (await crm.post("/v1/contatos", headers=owner.headers, json={"email": kept_email})).json()["contato"]
    await Contact.filter(public_id=old["id"]).update(created_at=datetime(2024, 1, 1, tzinfo=timezone.utc))
    # The runtime's copies: a form by the e-mail (never forwarded), a lead the CRM made this contact
    # (another e-mail typed), a lead by the phone as a person types it, and another person's form.
    by_email = await seed(owner.tenant, email=email.upper())
    by_contact = await seed(owner.tenant, source="lead", email=f"typo-{tag}@example.con", contact_id=old["id"])
    by_phone = await seed(owner.tenant, source="lead", email=None, phone="+55 11 97777-6666")
    stranger = await seed(owner.tenant, email=kept_email, name="Fresca")
    orphan = await seed(owner.tenant, email=f"refused-{tag}@example.com")  # older than the policy, no contact
    await Submission.filter(id=orphan.id).update(created_at=datetime(2024, 1, 1, tzinfo=timezone.utc))

    assert (await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": 1})).status_code == 200

    async def erased() -> bool:
        rows = [await Submission.get(id=row.id) for row in (by_email, by_contact, by_phone, orphan)]
        return all(row.anonymized_at for row in rows) and not await ContactErasure.filter(tenant=owner.tenant).exists()

    deadline = time.monotonic() + 60
    while not await erased():
        if time.monotonic() > deadline:
            logs = "\n".join(role.log.read_text()[-3000:] for role in crm_pipeline)
            raise AssertionError(f"not erased within 60 s:\n{logs}")
        await asyncio.sleep(0.3)

    for row in (by_email, by_contact, by_phone, orphan):
        values = (await Submission.get(id=row.id)).values()
        assert (values["email"], values["phone"], values["name"], values["attributes"]) == (None, None, None, {})
    untouched = await Submission.get(id=stranger.id)
    assert untouched.anonymized_at is None and untouched.values()["name"] == "Fresca"

    payloads = {}
    for delivery in await CrmDelivery.filter(tenant=owner.tenant):
        contact = open_payload(owner.tenant, delivery.payload)["data"]["contato"]
        payloads[contact["id"]] = contact
    assert payloads[old["id"]] == {"id": old["id"], "email": None, "telefone": None, "nome": None,
                                   "id_externo": None, "atributos": {}, "inscrito": True}
    assert payloads[new["id"]]["email"] == kept_email
