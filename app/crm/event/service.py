"""Events: recorded for a contact of the account, then handed to the journeys whose trigger takes
them (models/crm/journey.py ``enroll``), in the caller's transaction.

A contact is named by its id or by a natural identity; a natural identity that names no contact
creates it (the upsert of app/crm/contact/service.py), so an event can be the first thing an
account knows of a person. ``dedupe_key`` (a form submission id) makes a repeat one event.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.contact import service as contacts
from app.crm.contact.schemas import ContactWrite
from app.crm.errors import InvalidContact
from app.http.paging import KeysetPage, Page
from models.crm import Contact, ContactEvent
from models.crm.event import new_event_id
from models.crm.journey import enroll


async def resolve_contact(conn: BaseDBAsyncClient, tenant: str, contact_id: str | None,
                          identity: dict[str, Any], extra: dict[str, Any] | None = None) -> tuple[Contact, bool]:
    """The contact an event names: by id (404 when not the account's), else upserted by identity."""
    if contact_id is not None:
        if identity:
            raise InvalidContact("Name the contact by contato_id or by its identity, not both.",
                                 details={"contato_id": "give contato_id or email/telefone/id_externo"})
        return await contacts.contact(conn, tenant, contact_id), False
    if not identity:
        raise InvalidContact("Name the contact: contato_id, or one of email, telefone or id_externo.",
                             details={"contato_id": "one of contato_id, email, telefone, id_externo is required"})
    return await contacts.upsert(conn, tenant, ContactWrite.model_validate({**identity, **(extra or {})}))


async def record(conn: BaseDBAsyncClient, tenant: str, contact: Contact, name: str, source: str,
                 properties: dict[str, Any], occurred_at: datetime, *, dedupe_key: str | None = None,
                 trigger: tuple[str, str | None] | None = None) -> ContactEvent | None:
    """Insert the event (None when ``dedupe_key`` was already recorded) and enroll the contact into
    the journeys its trigger (kind, key) starts; default trigger: an API event of this name."""
    rows = await conn.execute_query_dict(
        "INSERT INTO contact_events (public_id, tenant, contact_id, name, source, properties, dedupe_key, "
        "occurred_at, created_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, now()) "
        "ON CONFLICT (tenant, dedupe_key) DO NOTHING RETURNING id",
        [new_event_id(), tenant, contact.id, name, source, json.dumps(properties, ensure_ascii=False), dedupe_key,
         occurred_at])
    if not rows:
        return None
    kind, key = trigger or ("evento", name)
    await enroll(conn, tenant, kind, key, [contact.id])
    return await ContactEvent.get(id=rows[0]["id"], using_db=conn)


async def list_events(conn: BaseDBAsyncClient, tenant: str, contact_id: str, page: KeysetPage) -> Page[ContactEvent]:
    """A contact's events, newest first (keyset paging by id)."""
    row = await contacts.contact(conn, tenant, contact_id)
    query = ContactEvent.filter(tenant=tenant, contact_id=row.id).using_db(conn)
    return await page.fetch(conn, query, audience=f"{tenant}:eventos:{contact_id}")
