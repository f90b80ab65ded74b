"""An account's retention policy: contacts older than ``days`` are anonymized (models.crm.contact);
and the erasures still owed for them elsewhere (:class:`ContactErasure`).

When a batch of contacts is anonymized, the same CRM transaction clears their events' properties
and writes one :class:`ContactErasure` with its ``crm_erasure.run`` job on the CRM outbox: the
copies of their PII outside the contacts table (the payloads of destination and conversion
deliveries; the runtime's form submissions and leads, reached over HTTP) are erased by that job,
retried until both are done, and then the erasure row is deleted. The row holds the contacts' ids,
e-mails and phones (sealed: the runtime needs them to find submissions that never became these
contacts) only until then.
"""

from __future__ import annotations

import json
from typing import Any

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from kit.actors import Actor
from kit.sealing import Sealer
from models.crm.delivery import open_payload, seal_payload
from models.outbox import enqueue

SEALER = Sealer("crm")


def erasure_purpose(tenant: str) -> str:
    return f"contact-erasure:{tenant}"


class RetentionPolicy(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64, unique=True)
    days = fields.IntField(null=True)  # null: retention off
    updated_at = fields.DatetimeField(auto_now=True)
    # When the anonymizing job was last handed to the workers, and when it last finished.
    enqueued_at = fields.DatetimeField(null=True)
    last_run_at = fields.DatetimeField(null=True)
    anonymized_total = fields.BigIntField(default=0)

    class Meta:
        table = "retention_policies"
        app = "crm"


class ContactErasure(Model):
    """Anonymized contacts whose copies elsewhere are still to be erased (one per anonymized batch)."""

    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64)
    contacts = fields.TextField()  # sealed JSON: [{"id": "ctt_...", "email": str|null, "phone": str|null}]
    count = fields.IntField()
    older_than_days = fields.IntField(null=True)  # the policy when it was owed (the runtime's old rows)
    deliveries_done = fields.BooleanField(default=False)
    attempts = fields.IntField(default=0)
    last_error = fields.CharField(max_length=200, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    enqueued_at = fields.DatetimeField(null=True)

    class Meta:
        table = "contact_erasures"
        app = "crm"
        indexes = (("enqueued_at",),)

    def erased(self) -> list[dict[str, Any]]:
        return SEALER.unseal_json(erasure_purpose(self.tenant), self.contacts)["contacts"]


async def owe_erasure(conn: BaseDBAsyncClient, tenant: str, contacts: list[dict[str, Any]],
                      older_than_days: int | None) -> int | None:
    """In the caller's (anonymizing) transaction: the contacts' events lose their properties (what an
    API event or a form carried), and the erasure of their other copies is owed: one row and its
    job. ``contacts``: ``{"pk", "id", "email", "phone"}`` as they were before anonymization; none,
    with the policy's ``older_than_days``, owes only the erasure of the runtime's rows that aged
    past the policy (they may never have become contacts)."""
    if not contacts and older_than_days is None:
        return None
    if contacts:
        await conn.execute_query(
            "UPDATE contact_events SET properties = '{}'::jsonb WHERE contact_id = ANY($1::bigint[])",
            [[contact["pk"] for contact in contacts]])
    sealed = SEALER.seal_json(erasure_purpose(tenant), {"contacts": [
        {"id": contact["id"], "email": contact["email"], "phone": contact["phone"]} for contact in contacts]})
    rows = await conn.execute_query_dict(
        "INSERT INTO contact_erasures (tenant, contacts, count, older_than_days, deliveries_done, attempts, "
        "created_at, enqueued_at) VALUES ($1, $2, $3, $4, $5, 0, now(), now()) RETURNING id",
        [tenant, sealed, len(contacts), older_than_days, not contacts])
    await enqueue(conn, Actor.CRM_ERASURE_RUN, rows[0]["id"])
    return rows[0]["id"]


# What a delivery's event says of a contact (``data.contato``, app/crm/destination/service.py) and
# what is left of it once the contact is anonymized: the id, and nothing that names the person.
CONTACT_PII = {"email": None, "telefone": None, "nome": None, "id_externo": None, "atributos": {}}
SCRUB_BATCH = 500


async def scrub_deliveries(conn: BaseDBAsyncClient, tenant: str, contact_ids: set[str]) -> int:
    """The account's delivery payloads (sealed; pending or sent) that carry one of these contacts lose
    its PII; how many changed. A repeat finds nothing more to change. Payloads are sealed, so the
    account's deliveries are opened in batches of SCRUB_BATCH (keyset by id)."""
    changed, after = 0, 0
    while True:
        rows = await conn.execute_query_dict(
            "SELECT id, payload FROM crm_deliveries WHERE tenant = $1 AND id > $2 ORDER BY id LIMIT $3",
            [tenant, after, SCRUB_BATCH])
        updates: list[tuple[int, str]] = []
        for row in rows:
            event = open_payload(tenant, row["payload"])
            contact = (event.get("data") or {}).get("contato")
            if isinstance(contact, dict) and contact.get("id") in contact_ids \
                    and any(contact.get(key) != value for key, value in CONTACT_PII.items() if key in contact):
                contact.update({key: value for key, value in CONTACT_PII.items() if key in contact})
                updates.append((row["id"], json.dumps(seal_payload(tenant, event))))
        if updates:
            await conn.execute_query(
                "UPDATE crm_deliveries d SET payload = u.p::jsonb, updated_at = now() "
                "FROM unnest($2::bigint[], $3::text[]) AS u(id, p) WHERE d.id = u.id AND d.tenant = $1",
                [tenant, [pk for pk, _ in updates], [payload for _, payload in updates]])
            changed += len(updates)
        if len(rows) < SCRUB_BATCH:
            return changed
        after = rows[-1]["id"]
