"""Messages: accepting them (the one write behind every send route); reads.py reads them back.

Accepting: for each item of a request, its idempotency record (claimed with INSERT ... ON CONFLICT,
so concurrent identical requests serialise on it and exactly one creates messages), its messages
(one per recipient) and one outbox row per message, the usage counters and the ``*.queued`` webhook
events, all in one statement. With idempotency keys the caller passes a transaction (the claims
and the write commit together, :func:`needs_transaction`); without, any connection will do: the
one statement is atomic on its own. Delivery is the workers' business.

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
from app.platform.template import service as templates
from models.platform.domain import UNREACHABLE_RECHECK_SECONDS, SenderState, sender_domain_state
from models.platform.blocklist import candidates
from models.platform.idempotency import WINDOW_HOURS
from models.platform.message import MessageStatus, new_message_id
from models.platform.usage import period_of, totals

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


def single_statement(principal: Principal | None, items: list[Item]) -> bool:
    """Whether :func:`accept` takes the one-statement path: one item of an account without a
    monthly quota (the quota's read-then-refuse stays on the general path)."""
    return principal is not None and len(items) == 1 and principal.effective_quota is None


def needs_transaction(items: list[Item], principal: Principal | None = None) -> bool:
    """Whether :func:`accept` must run in a transaction: it claims idempotency records in one
    statement and writes in another (on the one-statement path, given ``principal``, never)."""
    if single_statement(principal, items):
        return False
    return any(item.idempotency_key is not None for item in items)


# --- what may be sent ------------------------------------------------------------------------------

async def check_sender(conn: BaseDBAsyncClient, principal: Principal, address: str) -> None:
    """Refuse a Source whose domain is not a verified domain of the account (or cannot be confirmed now)."""
    state = await sender_domain_state(principal.tenant_pk, principal.mode, address)
    if state is SenderState.UNCONFIRMED:
        # Verified once, but DNS has not answered for longer than the verification stays valid.
        raise errors.VerificacaoIndisponivel(retry_after=UNREACHABLE_RECHECK_SECONDS,
                                             details={"Source": "domain verification cannot be confirmed now"})
    if state is not SenderState.VERIFIED:
        raise errors.RemetenteNaoVerificado(
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


async def _quota_left(conn: BaseDBAsyncClient, principal: Principal, period: str) -> int | None:
    if principal.effective_quota is None:
        return None
    used = await totals(conn, principal.tenant_pk, period)
    sent = sum(int(used[name]) for name in statement.COUNTER_OF.values())
    return max(0, principal.effective_quota - sent)


async def _claim_idempotency(conn: BaseDBAsyncClient, principal: Principal, operation: str,
                             item: Item) -> tuple[bool, list[str] | None, str | None]:
    """(ours, earlier message ids, earlier body hash). A record older than the window is taken over."""
    rows = await conn.execute_query_dict(
        "INSERT INTO idempotency_records (tenant_id, mode, operation, key, body_hash, message_ids, created_at, "
        "expires_at) VALUES ($1, $6, $2, $3, $4, '[]'::jsonb, now(), now() + make_interval(hours => $5)) "
        "ON CONFLICT (tenant_id, mode, operation, key) DO UPDATE SET body_hash = EXCLUDED.body_hash, message_ids = "
        "'[]'::jsonb, created_at = now(), expires_at = EXCLUDED.expires_at "
        "WHERE idempotency_records.expires_at < now() RETURNING id",
        [principal.tenant_pk, operation, item.idempotency_key, item.body_hash, WINDOW_HOURS, principal.mode],
    )
    if rows:
        return True, None, None
    earlier = await conn.execute_query_dict(
        "SELECT message_ids, body_hash FROM idempotency_records "
        "WHERE tenant_id = $1 AND mode = $4 AND operation = $2 AND key = $3",
        [principal.tenant_pk, operation, item.idempotency_key, principal.mode],
    )
    ids = earlier[0]["message_ids"]
    return False, json.loads(ids) if isinstance(ids, str) else ids, earlier[0]["body_hash"]


async def _write(conn: BaseDBAsyncClient, principal: Principal, channel: str, period: str,
                 rows: list[tuple[str, Draft, str | None]], claimed: list[tuple[str, list[str]]],
                 operation: str) -> None:
    """Messages, their outbox rows, the usage counters and the claimed idempotency records: one
    statement, so one round trip (and atomic by itself when no transaction surrounds it)."""
    body, params = statement.write_sql(principal, channel, period, rows)
    sql = "WITH " + body
    if claimed:
        first = len(params) + 1
        sql += (f", i AS (UPDATE idempotency_records r SET message_ids = v.ids::jsonb "
                f"FROM unnest(${first}::text[], ${first + 1}::text[]) AS v(key, ids) "
                f"WHERE r.tenant_id = $1 AND r.mode = $3 AND r.operation = ${first + 2} AND r.key = v.key)")
        params += [[key for key, _ in claimed], [json.dumps(ids) for _, ids in claimed], operation]
    await conn.execute_query(sql + " SELECT 1", params)


def _listed(value: Any) -> list:
    if value is None:
        return []
    return json.loads(value) if isinstance(value, str) else list(value)


async def accept_singles(conn: BaseDBAsyncClient, principal: Principal, channel: str, operation: str,
                         items: list[Item], *, compare_bodies: bool) -> list[Outcome]:
    """Single-item requests of one key and channel in ONE statement (one round trip, atomic alone,
    no transaction needed): for each item the blocklist match, the idempotency claim, its messages
    with their outbox rows; then the usage and report counters and the webhook events of all that
    was written. Each item keeps its own outcome, as if it had been sent alone. The items are all
    keyed or all not, and no two carry one key (a key's claim can be taken once per statement: the
    caller sends a repeat in a later statement, where it replays).

    The claim is ``INSERT ... ON CONFLICT DO UPDATE`` that changes an existing record only when it
    has expired (taken over) and otherwise writes it back as it is: unlike a SELECT, whose snapshot
    predates a concurrent first request's commit, the conflict path waits for that commit, locks the
    record and RETURNs its latest version, so the other 49 of 50 identical parallel requests read the
    first one's ids. The claim carries this request's new message ids, so the record that comes
    back is ours exactly when it holds them. A blocked recipient refuses its item before anything
    is claimed or written for it, as on the general path."""
    keyed = items[0].idempotency_key is not None
    now = datetime.now(timezone.utc)
    ids = [[new_message_id() for _ in item.drafts] for item in items]
    rows = [(message_id, draft, item.idempotency_key) for item, item_ids in zip(items, ids)
            for message_id, draft in zip(item_ids, item.drafts)]
    indexes = [index for index, item in enumerate(items) for _ in item.drafts]
    body, params = statement.write_sql(principal, channel, period_of(now), rows,
                                       gate=statement.CLAIMED if keyed else statement.UNBLOCKED, items=indexes)
    pairs = [{draft.recipient: candidates(draft.recipient) for draft in item.drafts} for item in items]
    first = len(params) + 1
    probes = [(index, kind, value) for index, found in enumerate(pairs) for each in found.values()
              for kind, value in each]
    params += [[index for index, _, _ in probes], [kind for _, kind, _ in probes], [value for _, _, value in probes]]
    if keyed:
        params += [operation, [item.idempotency_key for item in items], [item.body_hash for item in items],
                   [json.dumps(item_ids) for item_ids in ids], list(range(len(items))), WINDOW_HOURS]
    [row] = await conn.execute_query_dict(statement.singles_text(body, first, keyed), params)
    hits: dict[int, set[tuple[str, str]]] = {}
    for index, kind, value in _listed(row["blocked"]):
        hits.setdefault(index, set()).add((kind, value))
    claims = {key: (_listed(earlier), earlier_hash) for key, earlier, earlier_hash in _listed(row["claims"])}
    outcomes = []
    for index, item in enumerate(items):
        outcome = Outcome()
        outcomes.append(outcome)
        if index in hits:
            outcome.error = blocklist.refusal([draft.recipient for draft in item.drafts],
                                              {recipient for recipient, found in pairs[index].items()
                                               if any(pair in hits[index] for pair in found)})
            continue
        if keyed:
            earlier, earlier_hash = claims[item.idempotency_key]
            if earlier != ids[index]:
                if compare_bodies and earlier_hash != item.body_hash:
                    outcome.error = errors.IdempotencyConflict()
                else:
                    outcome.message_ids, outcome.reused = earlier, True
                continue
        outcome.message_ids = ids[index]
    return outcomes


async def accept(conn: BaseDBAsyncClient, principal: Principal, channel: str, operation: str, items: list[Item], *,
                 compare_bodies: bool) -> list[Outcome]:
    """Accept every item that can be; each item gets its message ids or its own error."""
    if single_statement(principal, items):
        return await accept_singles(conn, principal, channel, operation, items, compare_bodies=compare_bodies)
    outcomes = [Outcome() for _ in items]
    now = datetime.now(timezone.utc)
    period = period_of(now)
    quota_left = await _quota_left(conn, principal, period)
    new_rows: list[tuple[str, Draft, str | None]] = []
    claimed: list[tuple[str, list[str]]] = []
    keys_seen: set[str] = set()
    # The platform blocklist (docs/operator.md): a blocked recipient refuses its item, SuppressedAddress.
    hits = await blocklist.blocked(conn, [draft.recipient for item in items for draft in item.drafts])
    refusals = [blocklist.refusal([draft.recipient for draft in item.drafts], hits) if hits else None
                for item in items]
    # Each key's first unrefused item claims it, in key order as accept_singles claims, so that two
    # statements holding common keys (this batch's, coalesced single sends') never wait in a cycle.
    claimants: dict[str, Item] = {}
    for item, refused in zip(items, refusals):
        if refused is None and item.idempotency_key is not None:
            claimants.setdefault(item.idempotency_key, item)
    claims = {key: await _claim_idempotency(conn, principal, operation, claimants[key]) for key in sorted(claimants)}
    for item, outcome, refused in zip(items, outcomes, refusals):
        if refused is not None:
            outcome.error = refused
            continue
        if item.idempotency_key is not None:
            if item.idempotency_key in keys_seen:
                # Its record is this request's own, not yet holding ids: neither a replay nor a new send.
                outcome.error = errors.ValidationError(
                    "This IdempotencyKey is already used by an earlier item of this request.",
                    details={"IdempotencyKey": "repeats the key of an earlier item of this request"})
                continue
            keys_seen.add(item.idempotency_key)
            ours, earlier_ids, earlier_hash = claims[item.idempotency_key]
            if not ours:
                if compare_bodies and earlier_hash != item.body_hash:
                    outcome.error = errors.IdempotencyConflict()
                else:
                    outcome.message_ids, outcome.reused = earlier_ids or [], True
                continue
        if quota_left is not None:
            if len(item.drafts) > quota_left:
                retry = int((_next_month(now) - now).total_seconds())
                outcome.error = errors.QuotaExceeded(retry_after=retry, limit=principal.effective_quota)
                if item.idempotency_key is not None:  # nothing was accepted: free the key again
                    await conn.execute_query(
                        "DELETE FROM idempotency_records WHERE tenant_id = $1 AND mode = $4 AND operation = $2 "
                        "AND key = $3", [principal.tenant_pk, operation, item.idempotency_key, principal.mode])
                continue
            quota_left -= len(item.drafts)
        ids = [new_message_id() for _ in item.drafts]
        new_rows.extend((message_id, draft, item.idempotency_key) for message_id, draft in zip(ids, item.drafts))
        outcome.message_ids = ids
        if item.idempotency_key is not None:
            claimed.append((item.idempotency_key, ids))
    if new_rows:
        await _write(conn, principal, channel, period, new_rows, claimed, operation)
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
