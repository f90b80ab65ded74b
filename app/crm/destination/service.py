"""Destinations of an account and the CRM events they receive.

:func:`emit` is the one hook the CRM's writes call (contact upsert and edit, an opt-out, members
added to a list): in the caller's transaction it writes one pending delivery per enabled
destination subscribed to the event and per enabled conversion integration mapping it, and their
jobs on the CRM outbox (models/crm/delivery.py). The drain (tasks/crm/deliveries.py) sends them.
"""

from __future__ import annotations

from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import KeysetPage, Page
from kit.egress import url_problem
from models.crm import Contact, ContactList, CrmDelivery, CrmDestination
from models.crm.delivery import (EVENT_TYPES, TargetKind, emit_event, event_of, insert_deliveries,
                                 new_signing_secret, seal_secret)

TEST_EVENT = "destination.test"
DELIVERIES_DEFAULT = 50
DELIVERIES_MAX = 200


# --- the hook ------------------------------------------------------------------------------------

async def emit(conn: BaseDBAsyncClient, tenant: str, event_type: str, data: dict[str, Any]) -> list[str]:
    """Deliveries of a CRM event (``contact.created`` ...) to the account's destinations and
    conversion integrations, in the caller's transaction; their ids (none when nobody listens)."""
    return await emit_event(conn, tenant, event_type, data)


def contact_data(row: Contact, **extra: Any) -> dict[str, Any]:
    """A contact as its events carry it (the account's own destinations see its PII)."""
    pii = row.pii()
    return {"contato": {"id": row.public_id, "email": pii["email"], "telefone": pii["phone"], "nome": pii["name"],
                        "id_externo": row.external_id, "atributos": row.attributes, "inscrito": row.subscribed},
            **extra}


async def emit_contact(conn: BaseDBAsyncClient, tenant: str, row: Contact, created: bool) -> list[str]:
    return await emit(conn, tenant, "contact.created" if created else "contact.updated", contact_data(row))


async def emit_unsubscribed(conn: BaseDBAsyncClient, tenant: str, row: Contact, channels: tuple[str, ...]) -> None:
    await emit(conn, tenant, "contact.unsubscribed", contact_data(row, canais=list(channels)))


async def emit_members_added(conn: BaseDBAsyncClient, tenant: str, found: ContactList, member_pks: list[int]) -> None:
    """One ``list.member_added`` per member added now (members already in the list are not news)."""
    if not member_pks or not await _anyone_listens(conn, tenant, "list.member_added"):
        return
    rows = await Contact.filter(tenant=tenant, memberships__id__in=member_pks).using_db(conn)
    the_list = {"id": found.public_id, "slug": found.slug, "nome": found.name}
    for row in rows:
        await emit(conn, tenant, "list.member_added", contact_data(row, lista=the_list))


async def _anyone_listens(conn: BaseDBAsyncClient, tenant: str, event_type: str) -> bool:
    rows = await conn.execute_query_dict(
        "SELECT EXISTS (SELECT 1 FROM crm_destinations WHERE tenant = $1 AND enabled "
        "AND events @> jsonb_build_array($2::text)) OR EXISTS (SELECT 1 FROM crm_conversion_integrations "
        "WHERE tenant = $1 AND enabled AND (mappings ->> $2::text) IS NOT NULL) AS yes", [tenant, event_type])
    return bool(rows[0]["yes"])


# --- destinations --------------------------------------------------------------------------------

def check_url(url: str, *, allow_loopback: bool) -> None:
    problem = url_problem(url, allow_loopback=allow_loopback)
    if problem:
        raise errors.Unprocessable(f"url {problem}.", details={"url": problem})


def check_events(events: list[str]) -> list[str]:
    unknown = [event for event in events if event not in EVENT_TYPES]
    if unknown:
        raise errors.Unprocessable(f"Unknown event type(s): {', '.join(unknown)}.",
                                   details={"eventos": f"each one of {', '.join(EVENT_TYPES)}"})
    return list(dict.fromkeys(events))


async def destination(conn: BaseDBAsyncClient, tenant: str, destination_id: str) -> CrmDestination:
    found = await CrmDestination.get_or_none(tenant=tenant, public_id=destination_id, using_db=conn)
    if found is None:
        raise errors.NotFound("Destination not found.")
    return found


async def list_destinations(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage) -> Page[CrmDestination]:
    return await page.fetch(conn, CrmDestination.filter(tenant=tenant).using_db(conn), audience=f"{tenant}:destinos")


async def create(conn: BaseDBAsyncClient, tenant: str, url: str, events: list[str], description: str, enabled: bool,
                 *, allow_loopback: bool) -> tuple[CrmDestination, str]:
    """The destination and its signing secret (shown once)."""
    check_url(url, allow_loopback=allow_loopback)
    secret = new_signing_secret()
    row = await CrmDestination.create(tenant=tenant, url=url, events=check_events(events), description=description,
                                      enabled=enabled, secret_sealed=seal_secret(TargetKind.DESTINATION, tenant, secret),
                                      using_db=conn)
    return row, secret


async def update(conn: BaseDBAsyncClient, tenant: str, destination_id: str, changes: dict[str, Any], *,
                 allow_loopback: bool) -> CrmDestination:
    row = await destination(conn, tenant, destination_id)
    if changes.get("url") is not None:
        check_url(changes["url"], allow_loopback=allow_loopback)
        row.url = changes["url"]
    if changes.get("eventos") is not None:
        row.events = check_events(changes["eventos"])
    if changes.get("descricao") is not None:
        row.description = changes["descricao"]
    if changes.get("ativo") is not None:
        if changes["ativo"] and not row.enabled:  # turned back on: a fresh start for its breaker
            row.consecutive_failures, row.breaker_open_until = 0, None
        row.enabled = changes["ativo"]
    await row.save(using_db=conn)
    return row


async def rotate_secret(conn: BaseDBAsyncClient, tenant: str, destination_id: str) -> tuple[CrmDestination, str]:
    row = await destination(conn, tenant, destination_id)
    secret = new_signing_secret()
    row.secret_sealed = seal_secret(TargetKind.DESTINATION, tenant, secret)
    await row.save(using_db=conn)
    return row, secret


async def delete(conn: BaseDBAsyncClient, tenant: str, destination_id: str) -> None:
    row = await destination(conn, tenant, destination_id)
    await row.delete(using_db=conn)  # its deliveries go with it


async def test(conn: BaseDBAsyncClient, tenant: str, destination_id: str) -> CrmDelivery:
    """A pending test delivery through the same drain as the real ones (contract F, rule 4)."""
    row = await destination(conn, tenant, destination_id)
    event = event_of(tenant, TEST_EVENT, {"destino": row.public_id,
                                          "mensagem": "A test delivery from Herald's CRM."})
    [delivery_id] = await insert_deliveries(conn, tenant, event, [(TargetKind.DESTINATION.value, row.id)], test=True)
    return await CrmDelivery.get(public_id=delivery_id, using_db=conn)


async def deliveries(conn: BaseDBAsyncClient, tenant: str, *, destination_pk: int | None = None,
                     integration_pk: int | None = None, limit: int) -> list[CrmDelivery]:
    """The target's latest deliveries, newest first (the payload is never read for a listing)."""
    query = CrmDelivery.filter(tenant=tenant)
    query = query.filter(destination_id=destination_pk) if destination_pk is not None else \
        query.filter(integration_id=integration_pk)
    return await query.using_db(conn).order_by("-id").limit(limit)
