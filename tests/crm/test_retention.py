"""Retention (contract F, rule 1) over HTTP, and the edges of its job and actor, called directly
against the real CRM database (the outbox row is checked); test_retention_pipeline.py runs the same
through a real scheduler (the CRM relay) and worker."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from models.crm import Contact, OptOut, OutboxEntry, RetentionPolicy
from schedules.crm import retention as schedule
from tasks.crm import retention as actor


async def test_get_and_put_the_policy(crm, act):
    owner = await act("admin")
    empty = await crm.get("/v1/configuracoes/retencao", headers=owner.headers)
    assert empty.status_code == 200 and empty.json()["dias"] is None
    set_ = await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": 30})
    assert set_.status_code == 200 and set_.json()["dias"] == 30
    assert (await crm.get("/v1/configuracoes/retencao", headers=owner.headers)).json()["dias"] == 30
    off = await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": None})
    assert off.status_code == 200 and off.json()["dias"] is None
    assert (await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={})).status_code == 400
    assert (await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": 0})).status_code == 400
    assert (await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": "7"})).status_code == 400

    editor = await act("editor", tenant=owner.tenant)
    refused = await crm.put("/v1/configuracoes/retencao", headers=editor.headers, json={"dias": 1})
    assert refused.status_code == 403


async def test_old_contacts_are_anonymized_and_aggregates_kept(crm, act):
    owner = await act("admin")
    tag = secrets.token_hex(3)
    old = (await crm.post("/v1/contatos", headers=owner.headers, json={
        "email": f"old-{tag}@example.com", "telefone": "+5511988887777", "nome": "Velho", "id_externo": "v1",
        "atributos": {"plano": "pro"}})).json()["contato"]
    young = (await crm.post("/v1/contatos", headers=owner.headers,
                            json={"email": f"young-{tag}@example.com"})).json()["contato"]
    listed = (await crm.post("/v1/listas", headers=owner.headers, json={"nome": "Todos"})).json()["lista"]
    await crm.post(f"/v1/listas/{listed['id']}/membros", headers=owner.headers, json={"contatos": [old["id"]]})
    await crm.put(f"/v1/contatos/{old['id']}/consentimento", headers=owner.headers, json={"recebe": False})
    await Contact.filter(public_id=old["id"]).update(created_at=datetime(2020, 1, 1, tzinfo=timezone.utc))

    answer = await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": 1})
    assert answer.status_code == 200
    policy = await RetentionPolicy.get(tenant=owner.tenant)
    # Setting the policy handed the job to the workers through the CRM outbox, in its transaction.
    queued = await OutboxEntry.filter(actor=schedule.Actor.CRM_RETENTION_ANONYMIZE.name).values_list("args", flat=True)
    assert [policy.id] in queued

    assert await actor.anonymize(policy.id) == 1
    gone = await crm.get(f"/v1/contatos/{old['id']}", headers=owner.headers)
    body = gone.json()["contato"]
    assert (body["email"], body["telefone"], body["nome"], body["id_externo"], body["atributos"]) == (
        None, None, None, None, {})
    assert body["anonimizado_em"]
    row = await Contact.get(public_id=old["id"])
    assert (row.email_sealed, row.email_index, row.phone_sealed, row.name_sealed) == (None, None, None, None)
    # Aggregates stay: the row, its membership and its opt-outs.
    assert (await crm.get(f"/v1/listas/{listed['id']}", headers=owner.headers)).json()["lista"]["membros"] == 1
    assert await OptOut.filter(contact_id=row.id).count() == 4
    assert (await crm.get(f"/v1/contatos/{young['id']}", headers=owner.headers)).json()["contato"]["email"]
    assert await actor.anonymize(policy.id) == 0  # a repeat is harmless
    assert (await RetentionPolicy.get(id=policy.id)).last_run_at is not None
    # The e-mail is free again: a new contact, not the anonymized one.
    fresh = await crm.post("/v1/contatos", headers=owner.headers, json={"email": f"old-{tag}@example.com"})
    assert fresh.status_code == 201 and fresh.json()["contato"]["id"] != old["id"]


async def test_the_job_hands_over_due_policies_once(crm, act):
    owner = await act("admin")
    await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": 5})
    policy = await RetentionPolicy.get(tenant=owner.tenant)
    # Just set: handed over already, not due again.
    assert policy.id not in await due_ids()
    await RetentionPolicy.filter(id=policy.id).update(enqueued_at=None)
    before = await OutboxEntry.filter(actor=schedule.Actor.CRM_RETENTION_ANONYMIZE.name).count()
    assert await schedule.enqueue_due() >= 1
    after = await OutboxEntry.filter(actor=schedule.Actor.CRM_RETENTION_ANONYMIZE.name).count()
    assert after > before
    assert (await RetentionPolicy.get(id=policy.id)).enqueued_at is not None
    assert policy.id not in await due_ids()
    await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": None})
    await RetentionPolicy.filter(id=policy.id).update(enqueued_at=None)
    assert policy.id not in await due_ids()  # off: never handed over
    assert await actor.anonymize(policy.id) == 0


async def due_ids() -> list[int]:
    from tortoise import connections

    rows = await connections.get("crm").execute_query_dict(
        "SELECT id FROM retention_policies WHERE days IS NOT NULL "
        "AND (enqueued_at IS NULL OR enqueued_at < now() - make_interval(secs => $1))",
        [schedule.REENQUEUE_AFTER.total_seconds()])
    return [row["id"] for row in rows]


async def test_a_policy_handed_over_is_not_handed_again_while_its_queue_is_behind(crm, act):
    """schedules/sweep.py: a row handed over and not taken counts as lost once REENQUEUE_AFTER has passed
    and its queue has had the time to bring its job (how far behind the queue is, on top)."""
    from datetime import timedelta

    owner = await act("admin")
    await crm.put("/v1/configuracoes/retencao", headers=owner.headers, json={"dias": 5})
    policy = await RetentionPolicy.get(tenant=owner.tenant)
    handed = datetime.now(timezone.utc) - schedule.REENQUEUE_AFTER - timedelta(minutes=1)
    await RetentionPolicy.filter(id=policy.id).update(enqueued_at=handed)
    assert await schedule.POLICIES.run(only=[policy.id], behind=3600.0) == 0  # its job may still be queued
    assert (await RetentionPolicy.get(id=policy.id)).enqueued_at == handed
    assert await schedule.POLICIES.run(only=[policy.id], behind=0.0) == 1
