"""The blocklist's rules: entries, suggestions and their decisions (no Request, no transaction).

Matching is not here: a send is checked inside the one accept statement
(app/platform/message/statement.py) and again by the delivery actor, both from the candidates of
models/platform/blocklist.py (:func:`~models.platform.blocklist.candidates`).
"""

from __future__ import annotations

from datetime import datetime, timezone

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.http import errors
from app.platform.errors import SuppressedAddress
from app.platform.staff.service import Actor, record
from models.platform.blocklist import BlockEntry, BlockKind, BlockSuggestion, SuggestionState, normalize

__all__ = ["refusal"]


def refusal(recipients, hits: set[str]) -> SuppressedAddress | None:
    """The error of a send whose recipients include blocked ones (None when none is)."""
    refused = [recipient for recipient in recipients if recipient in hits]
    if not refused:
        return None
    return SuppressedAddress(f"Blocked on this platform: {', '.join(refused[:10])}.",
                             details={"Recipients": refused[:50]})


def _normalized(kind: str, value: str) -> str:
    found = normalize(kind, value)
    if found is None:
        raise errors.ValidationError(f"{value!r} is not a valid {kind}.", details={"Value": f"not a valid {kind}"})
    return found


def entries(conn: BaseDBAsyncClient, kind: str | None, q: str | None):
    query = BlockEntry.all().using_db(conn)
    if kind:
        query = query.filter(kind=kind)
    if q:
        query = query.filter(value__icontains=q)
    return query


async def add_entry(conn: BaseDBAsyncClient, actor: Actor, kind: str, value: str, reason: str) -> BlockEntry:
    value = _normalized(kind, value)
    if await BlockEntry.filter(kind=kind, value=value).using_db(conn).exists():
        raise errors.Conflict(f"{value} is already blocked.")
    try:
        entry = await BlockEntry.create(kind=kind, value=value, reason=reason, created_by=actor.user_id,
                                        using_db=conn)
    except IntegrityError:
        raise errors.Conflict(f"{value} is already blocked.") from None
    await record(conn, actor, "blocklist.add", entry.public_id, {"Kind": kind, "Value": value, "Reason": reason})
    return entry


async def remove_entry(conn: BaseDBAsyncClient, actor: Actor, entry_id: str) -> None:
    entry = await BlockEntry.filter(public_id=entry_id).using_db(conn).first()
    if entry is None:
        raise errors.NotFound("No such block entry.")
    await entry.delete(using_db=conn)
    await record(conn, actor, "blocklist.remove", entry.public_id, {"Kind": entry.kind, "Value": entry.value})


def undecided(conn: BaseDBAsyncClient):
    return BlockSuggestion.filter(state=SuggestionState.UNDECIDED.value).using_db(conn)


async def suggest(conn: BaseDBAsyncClient, actor: Actor, kind: str, value: str, reason: str) -> BlockSuggestion:
    value = _normalized(kind, value)
    if await BlockEntry.filter(kind=kind, value=value).using_db(conn).exists():
        raise errors.Conflict(f"{value} is already blocked.")
    if await BlockSuggestion.filter(kind=kind, value=value).using_db(conn).exists():
        raise errors.Conflict(f"{value} was already suggested.")
    try:
        found = await BlockSuggestion.create(kind=kind, value=value, reason=reason, source="staff",
                                             using_db=conn)
    except IntegrityError:
        raise errors.Conflict(f"{value} was already suggested.") from None
    await record(conn, actor, "blocklist.suggest", found.public_id, {"Kind": kind, "Value": value, "Reason": reason})
    return found


async def _undecided_locked(conn: BaseDBAsyncClient, suggestion_id: str) -> BlockSuggestion:
    found = await BlockSuggestion.filter(public_id=suggestion_id).using_db(conn).select_for_update().first()
    if found is None:
        raise errors.NotFound("No such suggestion.")
    if found.state != SuggestionState.UNDECIDED.value:
        raise errors.Conflict(f"This suggestion was already {found.state}.")
    return found


async def _decide(conn: BaseDBAsyncClient, found: BlockSuggestion, actor: Actor, state: SuggestionState) -> None:
    found.state = state.value
    found.decided_by = actor.user_id
    found.decided_at = datetime.now(timezone.utc)
    await found.save(using_db=conn, update_fields=["state", "decided_by", "decided_at"])


async def apply(conn: BaseDBAsyncClient, actor: Actor, suggestion_id: str) -> BlockEntry:
    """Promote an undecided suggestion to a block entry (409 once decided)."""
    found = await _undecided_locked(conn, suggestion_id)
    entry = await BlockEntry.filter(kind=found.kind, value=found.value).using_db(conn).first()
    if entry is None:
        entry = await BlockEntry.create(kind=found.kind, value=found.value, reason=found.reason,
                                        created_by=actor.user_id, using_db=conn)
    await _decide(conn, found, actor, SuggestionState.APPLIED)
    await record(conn, actor, "blocklist.apply", found.public_id, {"EntryId": entry.public_id, "Kind": found.kind,
                                                                  "Value": found.value})
    return entry


async def dismiss(conn: BaseDBAsyncClient, actor: Actor, suggestion_id: str) -> BlockSuggestion:
    found = await _undecided_locked(conn, suggestion_id)
    await _decide(conn, found, actor, SuggestionState.DISMISSED)
    await record(conn, actor, "blocklist.dismiss", found.public_id, {"Kind": found.kind, "Value": found.value})
    return found


KINDS = tuple(kind.value for kind in BlockKind)
