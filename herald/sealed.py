"""Every value Herald keeps sealed at rest, and moving them to the newest key of SECRET_KEY.

:data:`CATALOGUE` names, per system, each table holding sealed values (kit/sealing.py): the
columns to rewrite, the rows that hold one, and how a row's values are sealed again under the
newest key. A new sealed column belongs here, or ``herald keys reseal`` leaves it under the old
key and dropping that key makes it unreadable (docs/operations.md, "Rotating SECRET_KEY").

:func:`walk` reads a table in batches by id, opens each value with every key of SECRET_KEY and,
unless only checking, writes the ones opened under an older key back sealed under the newest in
one compare-and-set statement per batch: a row changed in between (a worker finished a message)
keeps its new value. The CRM's contacts get their lookup indexes recomputed under the newest key
with their PII. A value no key opens is counted and its row id reported, never written. Running
it again is safe and cheap: values already under the newest key open at the first try and are
left alone, so an interrupted run is simply run again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.identity.signing_key.service import PURPOSE as SIGNING_KEY
from app.identity.twofactor.service import SECRET_PURPOSE as TOTP_SECRET
from app.mail.received.content import MESSAGE as RECEIVED_MESSAGE
from kit.sealing import IDENTITY, PLATFORM, Sealer, SealError
from models.crm import contact, contact_import, delivery, retention
from models.identity.email import PURPOSE as IDENTITY_OUTBOX
from models.mail.received import SEALER as MAIL, SUMMARY_PURPOSE
from models.platform.domain import DKIM_KEY
from models.platform.message import ATTACHMENT_SEAL
from models.platform.provider_config import PROVIDER_SECRETS
from models.platform.webhook import WEBHOOK_SECRET
from models.runtime.lead import PURPOSE as LEAD_DATA, SEALER as RUNTIME

BATCH = 500
REPORTED_IDS = 20  # row ids of unreadable values named in the result (the count is complete)

Row = dict[str, Any]


class Current(Exception):
    """Every sealed value of the row is already under the newest key."""


@dataclass(frozen=True)
class SealedTable:
    table: str
    columns: tuple[str, ...]  # rewritten together, each compared with what was read
    types: tuple[str, ...]  # their SQL types: text, bytea or jsonb
    where: str  # the rows that hold a sealed value
    rewrite: Callable[[Row], tuple[Any, ...]]  # the columns' new values; Current, or SealError/ValueError
    reads: tuple[str, ...] = ()  # other columns the purposes are made of


@dataclass
class Counts:
    resealed: int = 0  # under an older key (only checking: would be resealed)
    current: int = 0
    unreadable: int = 0
    changed: int = 0  # written by someone else between the read and the write: left as they were
    conflicts: int = 0  # a recomputed lookup index another row already holds: left as it was
    unreadable_ids: list[int] = field(default_factory=list)
    conflict_ids: list[int] = field(default_factory=list)

    def as_json(self, checking: bool) -> dict[str, Any]:
        body: dict[str, Any] = {"OlderKey" if checking else "Resealed": self.resealed, "Current": self.current,
                                "Unreadable": self.unreadable}
        if self.unreadable_ids:
            body["UnreadableIds"] = self.unreadable_ids
        if not checking:
            body.update({"Changed": self.changed, "Conflicts": self.conflicts})
            if self.conflict_ids:
                body["ConflictIds"] = self.conflict_ids
        return body


# --- how one row is sealed again -------------------------------------------------------------------

def _text(sealer: Sealer, purpose: str, sealed: str | None) -> tuple[str | None, bool]:
    """(the value under the newest key, whether it changed); a missing value stays missing."""
    if sealed is None:
        return None, False
    resealed = sealer.reseal_text(purpose, sealed)
    return (sealed, False) if resealed is None else (resealed, True)


def _columns(sealer: Sealer, **purposes: Callable[[Row], str]) -> Callable[[Row], tuple[Any, ...]]:
    """Text or binary columns, each sealed whole under its purpose (made of the row)."""
    def rewrite(row: Row) -> tuple[Any, ...]:
        values, changed = [], False
        for column, purpose in purposes.items():
            value = row[column]
            if value is None:
                values.append(None)
                continue
            if isinstance(value, str):
                new = sealer.reseal_text(purpose(row), value)
            else:
                new = sealer.reseal(purpose(row), bytes(value))
            values.append(value if new is None else new)
            changed = changed or new is not None
        if not changed:
            raise Current()
        return tuple(values)
    return rewrite


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _attachments(row: Row) -> tuple[Any, ...]:
    content = _json(row["content"])
    changed = False
    for item in content.get("Attachments") or []:
        if isinstance(item, dict) and item.get("Sealed"):
            item["Sealed"], moved = _text(PLATFORM, ATTACHMENT_SEAL, item["Sealed"])
            changed = changed or moved
    if not changed:
        raise Current()
    return (json.dumps(content),)


def _delivery_payload(row: Row) -> tuple[Any, ...]:
    payload = _json(row["payload"])
    payload["sealed"], changed = _text(delivery.SEALER, delivery.payload_purpose(row["tenant"]), payload["sealed"])
    if not changed:
        raise Current()
    return (json.dumps(payload),)


def _contact(row: Row) -> tuple[Any, ...]:
    """PII under the newest key and the lookup indexes recomputed under it (the PII is normalized)."""
    tenant, changed, values = row["tenant"], False, []
    purpose = contact.pii_purpose(tenant)
    for kind in ("email", "phone"):
        sealed, index = row[f"{kind}_sealed"], row[f"{kind}_index"]
        if sealed is not None:
            plain, position = contact.SEALER.opened_text(purpose, sealed)
            if position:
                sealed = contact.SEALER.seal_text(purpose, plain)
            fresh = contact.blind_index(tenant, kind, plain.decode())
            changed = changed or bool(position) or fresh != index
            index = fresh
        values += [sealed, index]
    name, moved = _text(contact.SEALER, purpose, row["name_sealed"])
    if not (changed or moved):
        raise Current()
    return (*values, name)


def _by_tenant(purpose: Callable[[str], str]) -> Callable[[Row], str]:
    return lambda row: purpose(row["tenant"])


def _fixed(purpose: str) -> Callable[[Row], str]:
    return lambda row: purpose


def _webhook_secret(row: Row) -> str:
    return f"{WEBHOOK_SECRET}:{row['public_id']}"  # models/platform/webhook.py seal_secret


def _target_secret(kind: delivery.TargetKind) -> Callable[[Row], str]:
    return lambda row: delivery.secret_purpose(kind.value, row["tenant"])


CATALOGUE: dict[str, tuple[SealedTable, ...]] = {
    "platform": (
        SealedTable("provider_configs", ("secrets",), ("text",), "secrets IS NOT NULL",
                    _columns(PLATFORM, secrets=_fixed(PROVIDER_SECRETS))),
        SealedTable("sender_domains", ("dkim_private_key",), ("text",), "dkim_private_key IS NOT NULL",
                    _columns(PLATFORM, dkim_private_key=_fixed(DKIM_KEY))),
        SealedTable("webhook_endpoints", ("secret_sealed", "previous_secret_sealed"), ("text", "text"), "TRUE",
                    _columns(PLATFORM, secret_sealed=_webhook_secret, previous_secret_sealed=_webhook_secret),
                    reads=("public_id",)),
        # Only messages not yet final keep their files (a final state drops them: models/platform/message.py).
        SealedTable("messages", ("content",), ("jsonb",), "jsonb_path_exists(content, '$.Attachments[*].Sealed')",
                    _attachments),
    ),
    "identity": (
        SealedTable("signing_keys", ("private_key_enc",), ("bytea",), "TRUE",
                    _columns(IDENTITY, private_key_enc=_fixed(SIGNING_KEY))),
        SealedTable("totp_factors", ("secret_enc",), ("bytea",), "TRUE",
                    _columns(IDENTITY, secret_enc=_fixed(TOTP_SECRET))),
        SealedTable("emails", ("payload_enc",), ("bytea",), "TRUE",
                    _columns(IDENTITY, payload_enc=_fixed(IDENTITY_OUTBOX))),
    ),
    "crm": (
        SealedTable("contacts", ("email_sealed", "email_index", "phone_sealed", "phone_index", "name_sealed"),
                    ("text",) * 5, "email_sealed IS NOT NULL OR phone_sealed IS NOT NULL OR name_sealed IS NOT NULL",
                    _contact, reads=("tenant",)),
        SealedTable("crm_destinations", ("secret_sealed",), ("text",), "TRUE",
                    _columns(delivery.SEALER, secret_sealed=_target_secret(delivery.TargetKind.DESTINATION)),
                    reads=("tenant",)),
        SealedTable("crm_conversion_integrations", ("secret_sealed",), ("text",), "TRUE",
                    _columns(delivery.SEALER, secret_sealed=_target_secret(delivery.TargetKind.INTEGRATION)),
                    reads=("tenant",)),
        SealedTable("crm_deliveries", ("payload",), ("jsonb",), "payload ? 'sealed'", _delivery_payload,
                    reads=("tenant",)),
        SealedTable("contact_erasures", ("contacts",), ("text",), "TRUE",
                    _columns(retention.SEALER, contacts=_by_tenant(retention.erasure_purpose)), reads=("tenant",)),
        SealedTable("contact_imports", ("file_sealed",), ("text",), "file_sealed IS NOT NULL",
                    _columns(contact_import.SEALER, file_sealed=_by_tenant(contact_import.file_purpose)),
                    reads=("tenant",)),
    ),
    "runtime": (
        SealedTable("form_submissions", ("data",), ("text",), "TRUE", _columns(RUNTIME, data=_fixed(LEAD_DATA))),
    ),
    "mail": (
        SealedTable("received_messages", ("sealed_message", "sealed_summary"), ("bytea", "text"), "TRUE",
                    _columns(MAIL, sealed_message=_fixed(RECEIVED_MESSAGE), sealed_summary=_fixed(SUMMARY_PURPOSE))),
    ),
}


# --- walking a table -------------------------------------------------------------------------------

def _update_sql(sealed: SealedTable) -> str:
    """One compare-and-set UPDATE of a batch: $1 the ids, then per column its new and its old values."""
    arrays, sets, checks, names = ["$1::bigint[]"], [], [], ["id"]
    for position, (column, kind) in enumerate(zip(sealed.columns, sealed.types)):
        array = "bytea[]" if kind == "bytea" else "text[]"
        cast = "::jsonb" if kind == "jsonb" else ""
        new, old = 2 + 2 * position, 3 + 2 * position
        arrays += [f"${new}::{array}", f"${old}::{array}"]
        names += [f"n{position}", f"o{position}"]
        sets.append(f"{column} = u.n{position}{cast}")
        checks.append(f"t.{column} IS NOT DISTINCT FROM u.o{position}{cast}")
    return (f"UPDATE {sealed.table} t SET {', '.join(sets)} FROM unnest({', '.join(arrays)}) AS u({', '.join(names)}) "
            f"WHERE t.id = u.id AND {' AND '.join(checks)} RETURNING t.id")


def _stored(value: Any, kind: str) -> Any:
    """A value as the UPDATE's arrays carry it (jsonb as text)."""
    if kind == "jsonb" and value is not None and not isinstance(value, str):
        return json.dumps(value)
    return bytes(value) if kind == "bytea" and value is not None else value


async def _write(conn: BaseDBAsyncClient, sealed: SealedTable, updates: list[tuple[Row, tuple[Any, ...]]],
                 counts: Counts) -> None:
    sql = _update_sql(sealed)

    def parameters(batch: list[tuple[Row, tuple[Any, ...]]]) -> list[Any]:
        values: list[Any] = [[row["id"] for row, _ in batch]]
        for position, (column, kind) in enumerate(zip(sealed.columns, sealed.types)):
            values.append([_stored(new[position], kind) for _, new in batch])
            values.append([_stored(row[column], kind) for row, _ in batch])
        return values

    conflicts = counts.conflicts
    try:
        written = len(await conn.execute_query_dict(sql, parameters(updates)))
    except IntegrityError:  # a recomputed contact index another row holds: find it row by row
        written = 0
        for update in updates:
            try:
                written += len(await conn.execute_query_dict(sql, parameters([update])))
            except IntegrityError:
                counts.conflicts += 1
                if len(counts.conflict_ids) < REPORTED_IDS:
                    counts.conflict_ids.append(update[0]["id"])
    counts.resealed += written
    counts.changed += len(updates) - written - (counts.conflicts - conflicts)


async def walk(conn: BaseDBAsyncClient, sealed: SealedTable, *, check: bool, batch: int = BATCH) -> Counts:
    """Every row of ``sealed.table`` holding a sealed value: counted and, unless ``check``, resealed."""
    counts = Counts()
    columns = ", ".join(("id", *sealed.columns, *sealed.reads))
    query = f"SELECT {columns} FROM {sealed.table} WHERE id > $1 AND ({sealed.where}) ORDER BY id LIMIT $2"
    after = 0
    while True:
        rows = await conn.execute_query_dict(query, [after, batch])
        if not rows:
            return counts
        after = rows[-1]["id"]
        updates = []
        for row in rows:
            try:
                updates.append((row, sealed.rewrite(row)))
            except Current:
                counts.current += 1
            except (SealError, ValueError, KeyError, TypeError):  # no key opens it, or it is not a sealed value
                counts.unreadable += 1
                if len(counts.unreadable_ids) < REPORTED_IDS:
                    counts.unreadable_ids.append(row["id"])
        if check:
            counts.resealed += len(updates)
        elif updates:
            await _write(conn, sealed, updates, counts)
