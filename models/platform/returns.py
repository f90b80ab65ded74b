"""What comes back for an e-mail after it left: bounces, complaints and delivery reports.

Three kinds act on a message (:class:`Kind`), each a transition of the message that also appends
to its timeline, writes its webhook event through the outbox (models/platform/events.py) and
counts in the reports (models/platform/report.py), in one statement:

============  ==================  =====================================================
kind          from                to (and effect)
============  ==================  =====================================================
hard          sent                ``bounced``; the recipient suppressed (reason ``bounce``)
complaint     sent, delivered     ``complained``; the recipient suppressed (``complaint``)
delivered     sent                ``delivered``
soft          sent                stays ``sent``: a ``soft_bounce`` timeline entry only
============  ==================  =====================================================

A hard bounce at hand-off (an SMTP 5xx at RCPT) moves the message from ``sending`` instead, in
tasks/platform/delivery.py. A report that cannot be tied to a message of ours (no valid VERP
address, another recipient, older than :data:`RETURN_WINDOW`, not a report) changes nothing and
is kept in :class:`UnmatchedReturn`, a bounded table: rows older than :data:`UNMATCHED_KEEP` or
beyond the newest :data:`UNMATCHED_MAX` are dropped when a new one is written.
"""

from __future__ import annotations

import json
from datetime import timedelta
from enum import StrEnum

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model
from tortoise.transactions import in_transaction

from kit.metrics import BOUNCES, DELIVERY_REPORTS
from models.outbox import request_id
from models.platform.events import fanout_sql, message_data_sql
from models.platform.message import MessageStatus, finish
from models.platform.report import rollup_sql
from models.platform.suppression import Reason, suppress_recipient

RETURN_WINDOW = timedelta(days=30)
UNMATCHED_KEEP = timedelta(days=7)
UNMATCHED_MAX = 10_000


class Kind(StrEnum):
    HARD = "hard"
    SOFT = "soft"
    COMPLAINT = "complaint"
    DELIVERED = "delivered"


# kind -> (the states it moves a message from, the state it moves it to, the suppression it writes)
MOVES: dict[Kind, tuple[tuple[str, ...], str, Reason | None]] = {
    Kind.HARD: (("sent",), "bounced", Reason.BOUNCE),
    Kind.COMPLAINT: (("sent", "delivered"), "complained", Reason.COMPLAINT),
    Kind.DELIVERED: (("sent",), "delivered", None),
}


def classify_status(status: str | None, action: str = "failed") -> Kind | None:
    """A DSN's Action and Status (RFC 3464, RFC 3463), or an SMTP reply's enhanced code: 5.x.x
    failed is a hard bounce, 4.x.x or ``delayed`` a soft one, ``delivered`` a delivery. None for
    what Herald does not act on (``relayed``, ``expanded``, an unreadable status)."""
    action = (action or "").strip().lower()
    if action == "delivered":
        return Kind.DELIVERED
    if action == "delayed":
        return Kind.SOFT
    if action != "failed":
        return None
    first = (status or "").strip()[:1]
    return Kind.HARD if first == "5" else Kind.SOFT if first == "4" else None


class UnmatchedReturn(Model):
    """A report Herald received and could not tie to a message of ours: kept a while for the operator."""

    id = fields.BigIntField(primary_key=True)
    recipient = fields.CharField(max_length=512)
    kind = fields.CharField(max_length=16)
    reason = fields.CharField(max_length=200)
    # The message a VERP address named, when it named one (its tag valid or not).
    message_public_id = fields.CharField(max_length=60, null=True)
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)

    class Meta:
        table = "returns_unmatched"
        app = "platform"


_COLUMNS = "id, public_id, tenant_id, mode, channel, status, recipient, sender, subject, tags, failure_reason, template"

# The move, its timeline entry, its webhook event and its report counter, in one statement.
_MOVE = f"""
WITH u AS (
  UPDATE messages SET status = $3, failure_reason = COALESCE($4, failure_reason), updated_at = now()
  WHERE id = $1 AND status = ANY($2::text[]) RETURNING {_COLUMNS}
), ev AS (
  INSERT INTO message_events (message_id, type, detail, created_at) SELECT id, u.status, $5::jsonb, now() FROM u
), wh_source AS (
  SELECT u.tenant_id, u.mode, u.channel || '.' || u.status AS type, u.id AS message_id,
         {message_data_sql("u", ", 'Reason', $4::text")} AS data FROM u
){fanout_sql("wh_source", request="$6::text")}{rollup_sql("u")}
SELECT id FROM u
"""

_NOTE = """
INSERT INTO message_events (message_id, type, detail, created_at)
SELECT id, 'soft_bounce', $2::jsonb, now() FROM messages WHERE id = $1 AND status = 'sent' RETURNING id
"""


async def apply_return(conn: BaseDBAsyncClient, message_pk: int, kind: Kind, reason: str, detail: dict) -> bool:
    """Act on a matched report, in the caller's transaction; whether the message changed (or, for a
    soft bounce, whether the entry was written). ``reason`` is the timeline's plain words."""
    entry = json.dumps({"Reason": reason, **detail})
    if kind is Kind.SOFT:
        return _counted(kind, bool(await conn.execute_query_dict(_NOTE, [message_pk, entry])))
    sources, target, suppression = MOVES[kind]
    failure = reason if kind is not Kind.DELIVERED else None
    moved = bool(await conn.execute_query_dict(_MOVE, [message_pk, list(sources), target, failure, entry,
                                                              request_id()]))
    if moved and suppression is not None:
        await suppress_recipient(conn, message_pk, suppression)
    return _counted(kind, moved)


def _counted(kind: Kind, acted: bool) -> bool:
    """Count a return that acted (kit/metrics.py). Counted when its statement ran: the caller's
    transaction is committed by the caller, and in the rare case it then rolls back, the report is
    counted once more when it is sent again."""
    if acted:
        if kind is Kind.DELIVERED:
            DELIVERY_REPORTS.inc()
        else:
            BOUNCES.labels(kind.value).inc()
    return acted


async def keep_unmatched(conn: BaseDBAsyncClient, recipient: str, kind: str, reason: str,
                         message_public_id: str | None) -> None:
    """Keep a report that acts on nothing, and drop what is past the table's bounds."""
    await conn.execute_query(
        "INSERT INTO returns_unmatched (recipient, kind, reason, message_public_id, created_at) "
        "VALUES ($1, $2, $3, $4, now())", [recipient[:512], kind[:16], reason[:200], (message_public_id or None)])
    await conn.execute_query(
        "DELETE FROM returns_unmatched WHERE created_at < now() - make_interval(secs => $1) "
        "OR id <= (SELECT id FROM returns_unmatched ORDER BY id DESC OFFSET $2 LIMIT 1)",
        [UNMATCHED_KEEP.total_seconds(), UNMATCHED_MAX])


async def bounce_at_handoff(message_pk: int, provider: str | None, answer: str) -> bool:
    """A hard bounce at hand-off (SMTP 5xx at RCPT): ``sending`` -> ``bounced`` with its timeline
    entry, webhook event and report counter, and the recipient suppressed, in one transaction."""
    async with in_transaction("platform") as conn:
        reason = f"The recipient's mail server refused this address for good ({answer}); it is now suppressed."
        moved = await finish(conn, message_pk, MessageStatus.BOUNCED, provider=provider,
                             failure_reason=f"Bounced: {answer}", detail={"Reason": reason, "Kind": Kind.HARD.value})
        if moved:
            await suppress_recipient(conn, message_pk, Reason.BOUNCE)
    return _counted(Kind.HARD, moved)
