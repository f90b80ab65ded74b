"""Consent of a contact: every known channel (email, sms, push, whatsapp) is open unless an opt-out
row closes it; setting ``recebe`` false writes the row, true removes it (idempotent both ways)."""

from __future__ import annotations

from datetime import datetime

from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.contact.service import contact
from kit.actors import Actor
from app.crm.destination import service as destinations
from models.crm import OptOut
from models.crm.consent import CHANNELS
from models.outbox import enqueue


async def consent(conn: BaseDBAsyncClient, tenant: str, contact_id: str) -> tuple[str, dict[str, datetime | None]]:
    """(contact id, channel -> moment of its opt-out, None when it receives)."""
    row = await contact(conn, tenant, contact_id)
    outs = {out.channel: out.created_at for out in await OptOut.filter(contact_id=row.id).using_db(conn)}
    return row.public_id, {channel: outs.get(channel) for channel in CHANNELS}


async def set_consent(conn: BaseDBAsyncClient, tenant: str, contact_id: str, receives: bool,
                      channels: tuple[str, ...]) -> tuple[str, dict[str, datetime | None]]:
    row = await contact(conn, tenant, contact_id)
    if receives:
        await conn.execute_query("DELETE FROM opt_outs WHERE contact_id = $1 AND channel = ANY($2::text[])",
                                 [row.id, list(channels)])
    else:
        await conn.execute_query(
            "INSERT INTO opt_outs (contact_id, channel, created_at) SELECT $1, c, now() FROM unnest($2::text[]) AS c "
            "ON CONFLICT (contact_id, channel) DO NOTHING", [row.id, list(channels)])
        await destinations.emit_unsubscribed(conn, tenant, row, channels)
    # The opt-out (or its removal) reaches the platform as a suppression of the account's address
    # (tasks/crm/journeys.py sync_suppression reads the state when it runs, so jobs in any order agree).
    await enqueue_sync(conn, [(row.id, channel) for channel in channels])
    return await consent(conn, tenant, contact_id)


async def enqueue_sync(conn: BaseDBAsyncClient, jobs: list[tuple[int, str]]) -> None:
    for contact_pk, channel in jobs:
        if channel != "push":  # a push address is a device token the CRM does not hold
            await enqueue(conn, Actor.CRM_SUPPRESSION_SYNC, contact_pk, channel)
