"""The SQL of the accept statement (service.py runs it): the messages, their outbox rows, the
usage and report counters and the ``*.queued`` webhook events as CTEs (:func:`write_sql`), and
around them the blocklist match, the idempotency claims and the quota, per item
(:func:`accept_text`). Each text is built once per shape and cached."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson

from app.platform.api_key.principal import Principal
from kit.actors import Actor
from models.outbox import insert_sql
from models.platform.events import fanout_sql, message_data_sql
from models.platform.report import rollup_sql
from models.platform.usage import SEND_COUNTERS, upsert_sql

if TYPE_CHECKING:
    from app.platform.message.service import Draft

# Milliseconds from now to a scheduled message's time (0 for a message to send at once).
SCHEDULE_DELAY_SQL = ("COALESCE(GREATEST(0, ceil(extract(epoch FROM (next_attempt_at - now())) * 1000))::int, 0)")
# The messages written, with their request ids (the ``rq`` CTE), for their delivery jobs; and the
# request id of a ``*.queued`` webhook delivery, its event's message's (models/platform/events.py).
JOBS_SOURCE, JOBS_REQUEST = "m JOIN rq ON rq.message_id = m.id", "rq.request_id"
EVENTS_REQUEST = "(SELECT rq.request_id FROM rq WHERE rq.message_id = ev.message_id)"
COUNTER_OF = {"email": "emails_sent", "sms": "sms_sent", "push": "push_sent", "whatsapp": "whatsapp_sent"}


def json_text(value: Any) -> str:
    """JSON text for a jsonb column, by the C encoder (the accept path writes one or two per
    message); a value it refuses (an integer past 64 bits in free-form push Data) by the standard one."""
    try:
        return orjson.dumps(value).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value)


def write_sql(principal: Principal, channel: str, period: str,
              rows: list[tuple[str, Draft, str | None, str | None]], *, gate: str = "",
              items: list[int] | None = None) -> tuple[str, list]:
    """The CTEs (from ``m AS (...)`` on, no WITH) that insert the messages, their outbox rows, the
    usage counters, the ``*.queued`` webhook events and the report counters, with their parameters
    ($1 tenant, $2 channel, $3 mode, $4 key, then the columns, the items, the request ids, the
    period and the usage values). A row is (public id, draft, idempotency key, request id): the
    statement may hold several requests' messages (coalesce.py), and each message's jobs (its
    delivery, its ``*.queued`` webhook deliveries) carry its own request's id (models/outbox.py).
    ``gate``, an SQL condition over a message's row ``x`` (its item index ``x.ix``, from ``items``),
    lets only the messages for which it holds be written, and counted."""
    columns: dict[str, list] = {name: [] for name in ("public_id", "recipient", "role", "sender", "subject", "content",
                                                      "tags", "key", "template", "not_before")}
    for message_id, draft, key, _ in rows:
        columns["public_id"].append(message_id)
        columns["recipient"].append(draft.recipient)
        columns["role"].append(draft.role)
        columns["sender"].append(draft.sender)
        columns["subject"].append(draft.subject)
        columns["content"].append(json_text(draft.content))
        columns["tags"].append(json_text(draft.tags) if draft.tags is not None else None)
        columns["key"].append(key)
        columns["template"].append(draft.template)
        columns["not_before"].append(draft.not_before)
    params = [principal.tenant_pk, channel, principal.mode, principal.key_pk, *columns.values(),
              items if items is not None else [0] * len(rows), [request for *_, request in rows], period]
    # Gated, the counters count the messages written; ungated, every row is written.
    usage_sql, usage_params = upsert_sql({COUNTER_OF[channel]: 1 if gate else len(rows)}, tenant="$1",
                                         period=f"${len(params)}", first=len(params) + 1,
                                         per_row_of="m" if gate else None)
    return write_text(channel, usage_sql, gate), params + usage_params


@lru_cache(maxsize=64)
def write_text(channel: str, usage_sql: str, gate: str) -> str:
    """:func:`write_sql`'s SQL, the same for every call of one shape (a few kilobytes: built once)."""
    return (
        "m AS (INSERT INTO messages (public_id, tenant_id, channel, status, mode, api_key_id, recipient, "
        "recipient_role, sender, subject, content, tags, idempotency_key, template, next_attempt_at, attempts, "
        "created_at, updated_at) "
        "SELECT p, $1, $2, 'queued', $3, $4, r, ro, s, su, c::jsonb, t::jsonb, k, tp, nb, 0, now(), now() "
        "FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], "
        "$12::text[], $13::text[], $14::timestamptz[], $15::int[]) AS x(p, r, ro, s, su, c, t, k, tp, nb, ix) "
        + (f"WHERE {gate} " if gate else "")
        + "RETURNING id, public_id, tenant_id, mode, channel, status, recipient, sender, subject, tags, template, "
        "next_attempt_at), "
        # Each message's request id, by its public id (an INSERT returns only the table's columns).
        "rq AS (SELECT m.id AS message_id, q.rq AS request_id FROM m JOIN unnest($5::text[], $16::text[]) "
        "AS q(p, rq) ON q.p = m.public_id), "
        # A scheduled message's job waits in the broker until its time (the claim also refuses it before).
        f"o AS ({insert_sql(Actor.deliver(channel), JOBS_SOURCE, 'm.id', SCHEDULE_DELAY_SQL, JOBS_REQUEST)}), "
        f"u AS ({usage_sql}), "
        # <channel>.queued webhook events: the one-time EXISTS keeps a tenant without such an endpoint
        # at a single index probe (models/platform/events.py).
        "wh_source AS (SELECT m.tenant_id, m.mode, m.channel || '.queued' AS type, m.id AS message_id, "
        f"{message_data_sql('m')} AS data FROM m WHERE EXISTS (SELECT 1 FROM webhook_endpoints e "
        "WHERE e.tenant_id = $1 AND e.mode = $3 AND e.enabled AND (e.event_types ? '*' OR e.event_types ? ($2 || "
        "'.queued'))))"
        + fanout_sql("wh_source", request=EVENTS_REQUEST)
        + rollup_sql("m")
    )


# The refusals around the write, as conditions over a message's row ``x`` (its item index ``x.ix``,
# its idempotency key ``x.k``, its public id ``x.p``). A message is written when its item is not
# refused by the blocklist; when the item has a key, when the key's claim came back holding this
# statement's ids for it (ids are 96 random bits, so only our claim does); when the account has a
# quota, when the item was taken within it (``take``, which already implies both others).
UNBLOCKED = "NOT EXISTS (SELECT 1 FROM refused b WHERE b.item = x.ix)"
CLAIMED = "(x.k IS NULL OR EXISTS (SELECT 1 FROM claim c WHERE c.key = x.k AND c.message_ids ? x.p))"
TAKEN = "EXISTS (SELECT 1 FROM take t WHERE t.item = x.ix AND t.taken)"


def gate(keyed: bool, quota: bool) -> str:
    """The condition :func:`write_sql` writes a message under, for a statement of this shape."""
    if quota:
        return TAKEN
    return f"{UNBLOCKED} AND {CLAIMED}" if keyed else UNBLOCKED


_SENT = " + ".join(f"COALESCE(SUM({name}), 0)" for name in SEND_COUNTERS)


@lru_cache(maxsize=64)
def accept_text(body: str, first: int, keyed: bool, quota: bool) -> str:
    """The accept statement (service.accept runs it) around the write ``body`` (:func:`write_sql`,
    gated by :func:`gate`). Its parameters from ``$first`` on: the blocklist's candidates of each
    distinct recipient (recipient, kind, value); then, ``keyed``, the claims' operation, keys, body hashes, proposed ids (JSON),
    items and the window's hours; then, ``quota``, the quota, the period, and per item its index,
    its message count, its key and its first proposed id.

    suppressed  the recipients the account suppresses (app/platform/suppression, compared lower-cased);
    blocked   the recipients that a block entry matches (each distinct recipient probed once: a
              batch to one address is three probes, not three per item), and the suppressed ones;
    refused   the items with a blocked recipient (the write's recipients and items, $6 and $15);
    claim     per key, its claimant (the first unblocked item that carries it) claims the record
              with ``INSERT ... ON CONFLICT DO UPDATE``, which changes an existing record only
              when it has expired (taken over) and otherwise writes it back as it is: unlike a
              SELECT, whose snapshot predates a concurrent first request's commit, the conflict
              path waits for that commit, locks the record and RETURNs its latest version. The
              claims are taken in key order, so two statements holding common keys lock them in
              the same order and never wait in a cycle;
    take      the account's quota left this month (its send counters read once) handed out in item
              order to the items that would be written: an item that does not fit is refused and
              the next ones may still fit (WITH RECURSIVE, one step per item)."""
    at = first + 3
    sql = ("WITH RECURSIVE " if quota else "WITH ") + (
        "suppressed AS (SELECT DISTINCT x.r AS recipient FROM unnest($6::text[]) AS x(r) JOIN suppressions s "
        "ON s.tenant_id = $1 AND s.channel = $2 AND s.address = lower(x.r)), "
        "blocked AS (SELECT DISTINCT c.recipient FROM block_entries e JOIN "
        f"unnest(${first}::text[], ${first + 1}::text[], ${first + 2}::text[]) AS c(recipient, kind, value) "
        "ON e.kind = c.kind AND e.value = c.value UNION SELECT recipient FROM suppressed), "
        "refused AS (SELECT DISTINCT x.ix AS item FROM unnest($6::text[], $15::int[]) AS x(r, ix) "
        "JOIN blocked b ON b.recipient = x.r), ")
    claims = "NULL::json AS claims"
    if keyed:
        expired = "r.expires_at < now()"
        sql += (
            "claim AS (INSERT INTO idempotency_records AS r (tenant_id, mode, operation, key, body_hash, message_ids, "
            f"created_at, expires_at) SELECT $1, $3, ${at}, v.key, v.hash, v.ids::jsonb, now(), "
            f"now() + make_interval(hours => ${at + 5}) FROM (SELECT DISTINCT ON (v.key) v.key, v.hash, v.ids "
            f"FROM unnest(${at + 1}::text[], ${at + 2}::text[], ${at + 3}::text[], ${at + 4}::int[]) "
            "AS v(key, hash, ids, item) WHERE NOT EXISTS (SELECT 1 FROM refused b WHERE b.item = v.item) "
            "ORDER BY v.key, v.item) AS v ORDER BY v.key "
            "ON CONFLICT (tenant_id, mode, operation, key) DO UPDATE SET "
            f"body_hash = CASE WHEN {expired} THEN EXCLUDED.body_hash ELSE r.body_hash END, "
            f"message_ids = CASE WHEN {expired} THEN EXCLUDED.message_ids ELSE r.message_ids END, "
            f"created_at = CASE WHEN {expired} THEN now() ELSE r.created_at END, "
            f"expires_at = CASE WHEN {expired} THEN EXCLUDED.expires_at ELSE r.expires_at END "
            "RETURNING r.key, r.message_ids, r.body_hash), "
        )
        claims = "(SELECT json_agg(json_build_array(key, message_ids, body_hash)) FROM claim) AS claims"
        at += 6
    over = "NULL::json AS over"
    if quota:
        ours = " AND (s.key IS NULL OR EXISTS (SELECT 1 FROM claim c WHERE c.key = s.key AND c.message_ids ? s.id))"
        sql += (
            f"eligible AS (SELECT s.item, s.n, row_number() OVER (ORDER BY s.item) AS rn FROM unnest(${at + 2}::int[], "
            f"${at + 3}::int[], ${at + 4}::text[], ${at + 5}::text[]) AS s(item, n, key, id) "
            "WHERE NOT EXISTS (SELECT 1 FROM refused b WHERE b.item = s.item)" + (ours if keyed else "") + "), "
            "take (rn, item, remaining, taken) AS (SELECT 0::bigint, -1, "
            f"(SELECT GREATEST(0, ${at}::bigint - ({_SENT})) FROM usage_counters "
            f"WHERE tenant_id = $1 AND period = ${at + 1}::text)::bigint, false "
            "UNION ALL SELECT e.rn, e.item, CASE WHEN e.n <= t.remaining THEN t.remaining - e.n ELSE t.remaining END, "
            "e.n <= t.remaining FROM take t JOIN eligible e ON e.rn = t.rn + 1), "
        )
        over = "(SELECT json_agg(t.item) FROM take t WHERE t.item >= 0 AND NOT t.taken) AS over"
    return (sql + body + " SELECT (SELECT json_agg(recipient) FROM blocked) AS blocked, "
            "(SELECT json_agg(recipient) FROM suppressed) AS suppressed, " + claims + ", " + over)
