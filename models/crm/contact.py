"""Contacts of an account: natural identity (e-mail, E.164 phone, external id), PII sealed at rest.

E-mail, phone and name are sealed with AES-GCM (kit/sealing.py) under a key of the CRM derived
for the owner account (purpose ``contact-pii:<tenant>``): a value copied into another account's row
does not open there. Lookups by e-mail or phone go through a keyed blind index (HMAC-SHA256 under
``contact-index:<tenant>``) of the normalized value; the unique indexes on (tenant, index) make
the natural identity unique per account. A row written before a rotation of SECRET_KEY holds the
index under an older key until ``herald keys reseal`` rewrites it, so lookups ask for the index
under every key (:func:`blind_indexes`); writes store the newest (:func:`blind_index`). ``external_id`` is the account's own key, kept plain.

Anonymization (retention, :func:`anonymize_older_than`) is a row transition shared by the actor:
PII, indexes, external id and attributes are removed for good; the row, its list memberships and
opt-outs stay, so counts (aggregates) are unchanged. It answers what it removed, so the same
transaction can owe the erasure of the contacts' copies elsewhere (models/crm/retention.py).
"""

from __future__ import annotations

import json
from typing import Any

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from kit.sealing import Sealer
from kit.ids import public_id

SEALER = Sealer("crm")
PREFIX = "ctt"


def new_contact_id() -> str:
    return public_id(PREFIX)


def pii_purpose(tenant: str) -> str:
    return f"contact-pii:{tenant}"


def index_purpose(tenant: str) -> str:
    return f"contact-index:{tenant}"


def seal(tenant: str, value: str | None) -> str | None:
    return None if value is None else SEALER.seal_text(pii_purpose(tenant), value.encode())


def unseal(tenant: str, sealed: str | None) -> str | None:
    return None if sealed is None else SEALER.unseal_text(pii_purpose(tenant), sealed).decode()


def blind_index(tenant: str, kind: str, normalized: str | None) -> str | None:
    """The keyed digest of a normalized e-mail or phone, as stored (``kind``: email or phone)."""
    return None if normalized is None else SEALER.keyed_digest(index_purpose(tenant), f"{kind}:{normalized}")


def blind_indexes(tenant: str, kind: str, normalized: str | None) -> list[str]:
    """What a stored index of the value may be: its digest under every key of SECRET_KEY, newest
    first (none for no value); lookups match any of them."""
    return [] if normalized is None else SEALER.keyed_digests(index_purpose(tenant), f"{kind}:{normalized}")


class Contact(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    email_sealed = fields.TextField(null=True)
    email_index = fields.CharField(max_length=64, null=True)
    phone_sealed = fields.TextField(null=True)
    phone_index = fields.CharField(max_length=64, null=True)
    name_sealed = fields.TextField(null=True)
    external_id = fields.CharField(max_length=255, null=True)
    attributes: dict = fields.JSONField(default=dict)
    subscribed = fields.BooleanField(default=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)
    anonymized_at = fields.DatetimeField(null=True)

    class Meta:
        table = "contacts"
        app = "crm"
        unique_together = (("tenant", "email_index"), ("tenant", "phone_index"), ("tenant", "external_id"))
        indexes = (("tenant", "created_at"),)

    def pii(self) -> dict[str, str | None]:
        """The plain e-mail, phone and name, opened with the owner account's key."""
        return {"email": unseal(self.tenant, self.email_sealed), "phone": unseal(self.tenant, self.phone_sealed),
                "name": unseal(self.tenant, self.name_sealed)}


ANONYMIZE_BATCH = 1000


async def anonymize_older_than(conn: BaseDBAsyncClient, tenant: str, days: int,
                               limit: int = ANONYMIZE_BATCH) -> list[dict[str, Any]]:
    """Anonymize up to ``limit`` contacts of ``tenant`` created more than ``days`` days ago; each as it
    was, ``{"pk", "id", "email", "phone"}`` (opened), for the erasure of its copies elsewhere
    (models/crm/retention.py: owe_erasure, in the same transaction)."""
    rows = await conn.execute_query_dict(
        "WITH picked AS (SELECT id, email_sealed, phone_sealed FROM contacts WHERE tenant = $1 "
        "AND anonymized_at IS NULL AND created_at < now() - make_interval(days => $2) ORDER BY id LIMIT $3 "
        "FOR UPDATE SKIP LOCKED) "
        "UPDATE contacts c SET email_sealed = NULL, email_index = NULL, phone_sealed = NULL, phone_index = NULL, "
        "name_sealed = NULL, external_id = NULL, attributes = '{}'::jsonb, anonymized_at = now(), updated_at = now() "
        "FROM picked WHERE c.id = picked.id "
        "RETURNING c.id, c.public_id, picked.email_sealed, picked.phone_sealed", [tenant, days, limit])
    return [{"pk": row["id"], "id": row["public_id"], "email": unseal(tenant, row["email_sealed"]),
             "phone": unseal(tenant, row["phone_sealed"])} for row in rows]


def attributes_json(attributes: dict[str, Any]) -> str:
    return json.dumps(attributes, separators=(",", ":"), ensure_ascii=False)
