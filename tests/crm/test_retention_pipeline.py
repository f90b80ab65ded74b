"""Retention end to end: a real scheduler relaying the CRM's outbox and a real worker on the ``crm``
queue. Setting a 1-day policy anonymizes the account's older contacts with no direct call."""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import datetime, timezone

import pytest

from models.crm import Contact
from tests.fixtures.harness import Process


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
