"""Reading messages: ``/v1/emails`` (the key's mode, e-mail only) and the dashboard's
``/api/messages`` (every channel and both modes of the account), each with its timeline. The
accept path is in service.py.

``/v1/emails`` filters on the caller's tenant, the key's mode and the e-mail channel: another
tenant's message, a message of the other mode or an SMS answers 404 exactly like a missing one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import Q

from app.http import errors
from app.http.paging import OffsetPage, Page
from app.platform.api_key.principal import Principal
from app.platform.message import span
from app.platform.message.service import STATUSES
from models.platform.message import Message, MessageEvent, without_attachment_bytes

SUMMARY_FIELDS = ("id", "public_id", "status", "recipient", "recipient_role", "sender", "subject", "mode",
                  "created_at", "updated_at")


# --- reading ---------------------------------------------------------------------------------------

async def list_emails(conn: BaseDBAsyncClient, principal: Principal, page: OffsetPage, *, status: str | None,
                      search: str | None) -> Page[Message]:
    """The account's e-mail messages of the key's mode, newest first; ``search`` in recipient or subject."""
    query = Message.filter(tenant_id=principal.tenant_pk, mode=principal.mode, channel="email").using_db(conn)
    if status is not None:
        if status not in STATUSES:
            raise errors.Unprocessable(f"status must be one of {', '.join(STATUSES)}.",
                                       details={"status": f"one of {', '.join(STATUSES)}"})
        query = query.filter(status=status)
    if search:
        # Tortoise escapes % and _ in contains-filters: they match themselves, never as wildcards.
        query = query.filter(Q(recipient__icontains=search) | Q(subject__icontains=search))
    # The summary's columns only: a queued e-mail's content holds its sealed attachments (up to 10 MB).
    return await page.fetch(query.only(*SUMMARY_FIELDS).order_by("-id"))


async def email_with_timeline(conn: BaseDBAsyncClient, principal: Principal,
                              message_id: str) -> tuple[Message, list[MessageEvent]]:
    message = await Message.get_or_none(public_id=message_id, tenant_id=principal.tenant_pk, mode=principal.mode,
                                        channel="email", using_db=conn)
    if message is None:
        raise errors.NotFound("No e-mail message with this id.")
    events = await MessageEvent.filter(message_id=message.id).using_db(conn).order_by("id")
    return message, events


# --- the dashboard: every channel of the account, and its composer -----------------------------------

CHANNELS = ("email", "sms", "push", "whatsapp")
MODES = ("live", "test")
# A queued e-mail's content holds its sealed attachments (up to 10 MB): a listing never reads them.
_LIST_COLUMNS = ("id, public_id, tenant_id, channel, status, mode, api_key_id, recipient, recipient_role, sender, "
                 f"subject, {without_attachment_bytes('content')} AS content, tags, idempotency_key, template, "
                 "provider, provider_message_id, attempts, "
                 "lease_until, next_attempt_at, failure_reason, created_at, updated_at")


def like_pattern(term: str) -> str:
    """``%term%`` with ``\\``, ``%`` and ``_`` escaped: they match themselves."""
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def check_filters(channel: str | None, status: str | None) -> None:
    if channel is not None and channel not in CHANNELS:
        raise errors.Unprocessable(f"channel must be one of {', '.join(CHANNELS)}.",
                                   details={"channel": f"one of {', '.join(CHANNELS)}"})
    if status is not None and status not in STATUSES:
        raise errors.Unprocessable(f"status must be one of {', '.join(STATUSES)}.",
                                   details={"status": f"one of {', '.join(STATUSES)}"})


async def message_pk_of(conn: BaseDBAsyncClient, tenant_pk: int, message_id: str) -> int | None:
    rows = await conn.execute_query_dict("SELECT id FROM messages WHERE public_id = $1 AND tenant_id = $2",
                                         [message_id, tenant_pk])
    return rows[0]["id"] if rows else None


@dataclass(frozen=True)
class Filters:
    """What ``GET /api/messages`` narrows by. ``api_key_pk`` is a key of the account (resolved by
    :func:`api_key_of`), ``modes`` then its mode alone; ``start``/``end`` the window ``[start, end)``."""
    channel: str | None = None
    status: str | None = None
    search: str | None = None
    api_key_pk: int | None = None
    modes: tuple[str, ...] = MODES
    start: datetime | None = None
    end: datetime | None = None
    # Where the walk may stop though the window is open (the key's creation: it sent nothing
    # before). Bounds the ids only; clocks of other hosts may differ by less than span.SKEW.
    floor: datetime | None = None


async def api_key_of(conn: BaseDBAsyncClient, tenant_pk: int, key_id: str) -> tuple[int, str, datetime]:
    """(pk, mode, created_at) of the account's key ``key_...``, revoked or not; another account's
    key is refused exactly like a missing one."""
    rows = await conn.execute_query_dict(
        "SELECT id, mode, created_at FROM api_keys WHERE public_id = $1 AND tenant_id = $2", [key_id, tenant_pk])
    if not rows:
        raise errors.Unprocessable("Query parameter 'api_key' names no API key of this account.",
                                   details={"api_key": "no API key of this account has this id"})
    return rows[0]["id"], rows[0]["mode"], rows[0]["created_at"]


async def api_key_id_of(conn: BaseDBAsyncClient, message: Message) -> str | None:
    """The public id of the key that sent ``message`` (None for the composer's and the journeys' sends)."""
    if message.api_key_id is None:
        return None
    rows = await conn.execute_query_dict("SELECT public_id FROM api_keys WHERE id = $1 AND tenant_id = $2",
                                         [message.api_key_id, message.tenant_id])
    return rows[0]["public_id"] if rows else None


async def list_messages(conn: BaseDBAsyncClient, tenant_pk: int, *, limit: int, before_pk: int | None,
                        filters: Filters) -> tuple[list[Message], bool]:
    """The account's messages of every channel and both modes, newest first, after ``before_pk``.

    One branch per (mode, channel), each an index range newest first on ``messages (tenant_id,
    mode, channel, id)`` (or ``(tenant_id, mode, channel, status, id)`` with ``status``) that stops
    after ``limit + 1`` rows, merged by id: the first page reads at most 8 x (limit + 1) index
    entries whatever the account's size, with no index of its own to maintain on every send. ``q``
    filters on the expressions the trigram indexes cover (migration 0008). A time window becomes
    an id range as well (span.py), so a window's walk starts and stops inside it; ``api_key``
    filters the walk's rows (a key's messages are never older than the key)."""
    check_filters(filters.channel, filters.status)
    params: list[Any] = [tenant_pk, limit + 1]
    where = ["tenant_id = $1"]

    def condition(sql: str, value: Any) -> None:
        params.append(value)
        where.append(sql.format(f"${len(params)}"))

    if filters.status is not None:
        condition("status = {}", filters.status)
    if filters.api_key_pk is not None:
        condition("api_key_id = {}", filters.api_key_pk)
    earliest = max((moment for moment in (filters.start, filters.floor) if moment is not None), default=None)
    low, high = await span.id_range(conn, earliest, filters.end)
    if before_pk is not None:
        high = before_pk if high is None else min(high, before_pk)
    if high is not None:
        condition("id < {}", high)
    if low is not None:
        condition("id >= {}", low)
    if filters.start is not None:
        condition("created_at >= {}", filters.start)
    if filters.end is not None:
        condition("created_at < {}", filters.end)
    if filters.search:
        params.append(like_pattern(filters.search))
        where.append(f"(UPPER(CAST(recipient AS VARCHAR)) LIKE UPPER(${len(params)}) ESCAPE '\\' "
                     f"OR UPPER(CAST(subject AS VARCHAR)) LIKE UPPER(${len(params)}) ESCAPE '\\')")
    joined = " AND ".join(where)
    branches = [f"(SELECT {_LIST_COLUMNS} FROM messages WHERE {joined} AND mode = '{mode}' "
                f"AND channel = '{name}' ORDER BY id DESC LIMIT $2)"
                for mode in filters.modes if mode in MODES
                for name in ((filters.channel,) if filters.channel else CHANNELS)]
    rows = await conn.execute_query_dict(
        f"SELECT * FROM ({' UNION ALL '.join(branches)}) AS page ORDER BY id DESC LIMIT $2", params)
    messages = [Message._init_from_db(**row) for row in rows]
    return messages[:limit], len(messages) > limit


async def message_with_timeline(conn: BaseDBAsyncClient, tenant_pk: int,
                                message_id: str) -> tuple[Message, list[MessageEvent]]:
    """Any message of the account (any channel, either mode); another account's is the same 404."""
    message = await Message.get_or_none(public_id=message_id, tenant_id=tenant_pk, using_db=conn)
    if message is None:
        raise errors.NotFound("No message with this id.")
    events = await MessageEvent.filter(message_id=message.id).using_db(conn).order_by("id")
    return message, events
