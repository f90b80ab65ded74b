"""Messages: accepting them (the one write behind every send route); reads.py reads them back.

Accepting (:func:`accept`) is one algorithm and one statement for every caller: a single send, a
batch, several requests written together (coalesce.py, through which every route goes), the
dashboard's composer and the internal send. For each item of the statement: the blocklist match
(a blocked recipient refuses its item before anything is claimed or written for it), its
idempotency claim (``INSERT ... ON CONFLICT``, so concurrent identical requests serialise on the
record and exactly one creates messages), the account's monthly quota when it has one, its
messages (one per recipient) with one outbox row each; then the usage and report counters and the
``*.queued`` webhook events of all that was written. Each item keeps its own outcome, as if it
had been sent alone: one item's refusal never fails the others.

The statement is atomic on its own, so any connection will do, with one exception: an item of an
account with a quota that claims its key and then does not fit in the quota frees the key again
in a second statement, which must commit with the first (:func:`needs_transaction`).

Idempotency records belong to the key's mode: a live send never replays a test one. Within one
request a key names one item: a later item repeating an earlier item's key gets its own error.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.platform.api_key.principal import Principal
from app.platform.blocklist import service as blocklist
from app.platform.message import statement
from app.platform.suppression import service as suppression
from app.platform.template import service as templates
from models.outbox import request_id
from models.platform.domain import UNREACHABLE_RECHECK_SECONDS, SenderState, sender_domain_state
from models.platform.blocklist import candidates
from models.platform.idempotency import WINDOW_HOURS
from models.platform.message import MessageStatus, new_message_id
from models.platform.usage import period_of

STATUSES = [status.value for status in MessageStatus]


@dataclass
class Draft:
    recipient: str
    role: str
    sender: str | None
    subject: str | None
    content: dict[str, Any]
    tags: dict[str, str] | None
    template: str | None = None  # the slug the content was rendered from (reports count by it)
    not_before: datetime | None = None  # a scheduled send: delivered from this time on


@dataclass
class Item:
    drafts: list[Draft]
    idempotency_key: str | None = None
    body_hash: str = ""
    # The request that sent it, whose id its messages' jobs carry (models/outbox.py): the handler's
    # own, taken where the item is made, since a statement may write several requests' items.
    request_id: str | None = field(default_factory=request_id)


@dataclass
class Outcome:
    message_ids: list[str] = field(default_factory=list)
    reused: bool = False
    error: errors.HttpError | None = None


def body_hash(body: dict[str, Any], key: str | None) -> str:
    """Hash of a request body with field order and IdempotencyKey ignored; only an idempotent
    request is ever compared, so without a key there is nothing to compute."""
    if key is None:
        return ""
    canonical = {key: value for key, value in body.items() if key != "IdempotencyKey"}
    return hashlib.sha256(json.dumps(canonical, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def needs_transaction(principal: Principal, items: list[Item]) -> bool:
    """Whether :func:`accept` of ``items`` must run in a transaction: only when it may free a
    claimed key again (an account with a quota, an item with a key)."""
    return principal.effective_quota is not None and any(item.idempotency_key is not None for item in items)


# --- what may be sent ------------------------------------------------------------------------------

async def check_sender(conn: BaseDBAsyncClient, principal: Principal, address: str) -> None:
    """Refuse a Source whose domain is not a verified domain of the account (or cannot be confirmed now)."""
    state = await sender_domain_state(principal.tenant_pk, principal.mode, address)
    if state is SenderState.UNCONFIRMED:
        # Verified once, but DNS has not answered for longer than the verification stays valid.
        raise errors.VerificationUnavailable(retry_after=UNREACHABLE_RECHECK_SECONDS,
                                             details={"Source": "domain verification cannot be confirmed now"})
    if state is not SenderState.VERIFIED:
        raise errors.SenderNotVerified(
            f"{address} is not on a verified domain of this account; verify the domain first.",
            details={"Source": "domain not verified"})


async def template_content(conn: BaseDBAsyncClient, principal: Principal, slug: str,
                           variables: dict[str, str]) -> dict[str, Any]:
    """The content of a WhatsApp message from an approved template of the account."""
    found = await templates.rendered(conn, principal.tenant_pk, slug, "whatsapp", variables)
    return {"Template": slug, "Language": found.template.language, "Variables": variables, "Body": found.text}


# --- accepting -------------------------------------------------------------------------------------

def _next_month(now: datetime) -> datetime:
    return datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=timezone.utc)


def _listed(value: Any) -> list:
    if value is None:
        return []
    return json.loads(value) if isinstance(value, str) else list(value)


async def accept(conn: BaseDBAsyncClient, principal: Principal, channel: str, operation: str, items: list[Item], *,
                 compare_bodies: bool) -> list[Outcome]:
    """Accept every item that can be, in one statement; each item gets its message ids or its own
    error. With ``compare_bodies`` (SMS, push, WhatsApp, the composer) a key replayed with another
    body is a conflict; without (e-mail) the first answer is replayed whatever the body.

    ``conn`` is a transaction when :func:`needs_transaction` says so. The items may come from
    several requests (coalesce.py) as long as no key is carried by two requests' items: a key's
    record is claimed once per statement, by its first unblocked item; a later item of the same
    request repeating it is refused, as a request's own mistake."""
    if not items:
        return []
    keyed = any(item.idempotency_key is not None for item in items)
    quota = principal.effective_quota is not None
    now = datetime.now(timezone.utc)
    period = period_of(now)
    ids = [[new_message_id() for _ in item.drafts] for item in items]
    rows = [(message_id, draft, item.idempotency_key, item.request_id) for item, item_ids in zip(items, ids)
            for message_id, draft in zip(item_ids, item.drafts)]
    indexes = [index for index, item in enumerate(items) for _ in item.drafts]
    body, params = statement.write_sql(principal, channel, period, rows, gate=statement.gate(keyed, quota),
                                       items=indexes)
    recipients = {draft.recipient for item in items for draft in item.drafts}
    probes = [(recipient, kind, value) for recipient in recipients for kind, value in candidates(recipient)]
    first = len(params) + 1
    params += [[recipient for recipient, _, _ in probes], [kind for _, kind, _ in probes],
               [value for _, _, value in probes]]
    claimed = [(index, item) for index, item in enumerate(items) if item.idempotency_key is not None]
    if keyed:
        params += [operation, [item.idempotency_key for _, item in claimed], [item.body_hash for _, item in claimed],
                   [json.dumps(ids[index]) for index, _ in claimed], [index for index, _ in claimed], WINDOW_HOURS]
    if quota:
        params += [principal.effective_quota, period, list(range(len(items))), [len(item.drafts) for item in items],
                   [item.idempotency_key for item in items], [item_ids[0] for item_ids in ids]]
    [row] = await conn.execute_query_dict(statement.accept_text(body, first, keyed, quota), params)

    blocked = set(_listed(row["blocked"]))
    suppressed = set(_listed(row["suppressed"]))
    hits = {index for index, item in enumerate(items) if any(draft.recipient in blocked for draft in item.drafts)}
    claims = {key: (_listed(earlier), earlier_hash) for key, earlier, earlier_hash in _listed(row["claims"])}
    over = set(_listed(row["over"]))
    claimant: dict[str, int] = {}  # each key's first unblocked item: the one whose claim was taken
    for index, item in claimed:
        if index not in hits:
            claimant.setdefault(item.idempotency_key, index)
    outcomes = []
    freed: list[str] = []
    for index, item in enumerate(items):
        outcome = Outcome()
        outcomes.append(outcome)
        if index in hits:  # the account's suppressions (docs/bounces.md), the platform blocklist (docs/operator.md)
            outcome.error = (suppression.refusal([draft.recipient for draft in item.drafts], suppressed)
                             or blocklist.refusal([draft.recipient for draft in item.drafts], blocked))
            continue
        key = item.idempotency_key
        if key is not None:
            if claimant[key] != index:
                # Its record is this request's own, not holding this item's ids: neither a replay nor a new send.
                outcome.error = errors.ValidationError(
                    "This IdempotencyKey is already used by an earlier item of this request.",
                    details={"IdempotencyKey": "repeats the key of an earlier item of this request"})
                continue
            earlier, earlier_hash = claims[key]
            if earlier != ids[index]:
                if compare_bodies and earlier_hash != item.body_hash:
                    outcome.error = errors.IdempotencyConflict()
                else:
                    outcome.message_ids, outcome.reused = earlier, True
                continue
        if index in over:
            retry = int((_next_month(now) - now).total_seconds())
            outcome.error = errors.QuotaExceeded(retry_after=retry, limit=principal.effective_quota)
            if key is not None:  # nothing was accepted: free the key again
                freed.append(key)
            continue
        outcome.message_ids = ids[index]
    if freed:
        await conn.execute_query(
            "DELETE FROM idempotency_records WHERE tenant_id = $1 AND mode = $2 AND operation = $3 "
            "AND key = ANY($4::text[])", [principal.tenant_pk, principal.mode, operation, freed])
    return outcomes


async def account_principal(conn: BaseDBAsyncClient, tenant_pk: int) -> Principal:
    """The account as the accept path sees a caller: the dashboard sends in live mode, with no key."""
    rows = await conn.execute_query_dict(
        "SELECT id, public_id, name, status, plan, effective_quota FROM tenants WHERE id = $1", [tenant_pk])
    if not rows:
        raise errors.NotFound("No such tenant.")
    tenant = rows[0]
    principal = Principal(key_pk=None, key_id="", key_name="dashboard", scopes=(), mode="live", publishable=False,
                          revoked=False, tenant_pk=tenant["id"], tenant_id=tenant["public_id"],
                          tenant_name=tenant["name"], tenant_status=tenant["status"] or "",
                          plan=tenant["plan"] or "", effective_quota=tenant["effective_quota"])
    if not principal.tenant_active:
        raise errors.TenantSuspended()
    return principal
