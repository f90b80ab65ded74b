"""Messages and their timelines.

States (docs/messages.md): queued -> sending -> sent -> delivered, with failed, bounced and
complained as ends; a transient provider failure puts the message back to queued with a
``next_attempt_at``. The creation of a message is the first entry of its timeline (its
``created_at``), so accepting a message writes no event row.
"""

from __future__ import annotations

import json
from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id
from models.lease import Leased, Retries, rows as _rows
from models.outbox import request_id
from models.platform.events import fanout_sql, message_data_sql
from models.platform.report import rollup_sql
from models.platform.usage import SEND_COUNTERS


class Channel(StrEnum):
    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"
    WHATSAPP = "whatsapp"


class MessageStatus(StrEnum):
    QUEUED = "queued"
    SENDING = "sending"
    SENT = "sent"
    DELIVERED = "delivered"
    FAILED = "failed"
    BOUNCED = "bounced"
    COMPLAINED = "complained"

    @property
    def final(self) -> bool:
        return self not in (MessageStatus.QUEUED, MessageStatus.SENDING)


def new_message_id() -> str:
    return public_id("msg")




# The sealing purpose of an e-mail attachment's bytes (kit/sealing.py), kept until the message is final.
ATTACHMENT_SEAL = "message-attachment"


class Message(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_message_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="messages", on_delete=fields.CASCADE)
    channel = fields.CharField(max_length=10)
    status = fields.CharField(max_length=12, default=MessageStatus.QUEUED.value)
    mode = fields.CharField(max_length=4)
    api_key_id = fields.BigIntField(null=True)
    recipient = fields.CharField(max_length=512)
    # to, cc, bcc (e-mail), to (SMS, WhatsApp), device (push)
    recipient_role = fields.CharField(max_length=8)
    sender = fields.CharField(max_length=512, null=True)
    subject = fields.TextField(null=True)
    content: dict = fields.JSONField()
    tags: dict = fields.JSONField(null=True)
    idempotency_key = fields.CharField(max_length=140, null=True)
    # The slug of the template the content was rendered from (reports count by it), or None.
    template = fields.CharField(max_length=100, null=True)
    provider = fields.CharField(max_length=64, null=True)
    provider_message_id = fields.CharField(max_length=255, null=True)
    attempts = fields.SmallIntField(default=0)
    lease_until = fields.DatetimeField(null=True)
    next_attempt_at = fields.DatetimeField(null=True)
    failure_reason = fields.TextField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "messages"
        app = "platform"
        # Reads (GET /v1/emails) are per tenant, mode (a key sees its own mode only) and channel, newest first.
        indexes = (("tenant_id", "mode", "channel", "id"), ("status", "updated_at"))


class MessageEvent(Model):
    id = fields.BigIntField(primary_key=True)
    message = fields.ForeignKeyField("platform.Message", related_name="events", on_delete=fields.CASCADE)
    type = fields.CharField(max_length=24)
    detail: dict = fields.JSONField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "message_events"
        app = "platform"


# --- transitions: each one updates the message and appends to its timeline in one statement ----

# Messages as an instance of the one lease pipeline (models/lease.py): queued -> sending with a
# lease (the claim counts the attempt); a transient failure defers it (queued, next_attempt_at);
# the reconciler (schedules/platform/delivery.py) is the sweep, a backstop to Dramatiq's own
# retries: it takes a queued message only RECONCILE_AFTER past its due time and untouched as long
# (``updated_at`` is its mark), and a sending one whose lease ran out.
LEASED = Leased(table="messages", waiting="status = 'queued'", taken="status = 'sending'", count_at_claim=True,
                take=", status = 'sending', updated_at = {now}, next_attempt_at = NULL", mark="updated_at",
                sweep_late=True)
# Between attempts: 5 s, 10 s, 20 s ... at most an hour (a provider's Retry-After wins); the 8th
# failed attempt is final.
MAX_ATTEMPTS = 8
RETRIES = Retries(max_attempts=MAX_ATTEMPTS, first=5.0, ceiling=3600.0)

# The claim commits without waiting for its WAL flush (``synchronous_commit`` off for this statement's
# own transaction; issue 46): it is visible to every other worker at once all the same, so no two
# attempts hold a message; only a crash of PostgreSQL itself within a fraction of a second could
# forget it, and then the attempt's outcome cannot be written either (its connection died with the
# server): the message is sent again, the crash window docs/messages.md describes. The outcome
# (finish) still waits for its flush: a ``sent`` once answered is never forgotten.
_CLAIM = f"""
WITH c AS (
  {LEASED.claim_sql("id, public_id, tenant_id, channel, mode, recipient, sender, subject, content, tags, attempts")}
), e AS (
  INSERT INTO message_events (message_id, type, detail, created_at)
  SELECT id, 'sending', jsonb_build_object('Attempt', attempts), now() FROM c
)
SELECT c.*, t.public_id AS tenant_public_id, t.effective_quota FROM c JOIN tenants t ON t.id = c.tenant_id
  CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
"""

# The webhook events of a transition (models/platform/events.py) are written by the same statement.
_MESSAGE_COLUMNS = ("id, public_id, tenant_id, mode, channel, status, recipient, sender, subject, tags, failure_reason, "
                    "template")

def purge_content_sql(alias: str) -> str:
    """The SET clause, for a move to a final state, that drops the content of a tenant with
    ``purge_content`` (the system tenant: its e-mails carry sign-in codes and reset links), and
    of every message its attachments' sealed bytes (their names, types, sizes and digests stay)."""
    return (f"content = CASE WHEN EXISTS (SELECT 1 FROM tenants t WHERE t.id = {alias}.tenant_id AND t.purge_content) "
            f"THEN '{{\"Purged\": true}}'::jsonb ELSE {without_attachment_bytes(alias + '.content')} END")


def without_attachment_bytes(content: str) -> str:
    """``content`` (a jsonb expression) with its attachments' ``Sealed`` bytes dropped."""
    return (f"CASE WHEN jsonb_typeof({content} -> 'Attachments') = 'array' "
            f"THEN jsonb_set({content}, '{{Attachments}}', COALESCE((SELECT jsonb_agg(a - 'Sealed') "
            f"FROM jsonb_array_elements({content} -> 'Attachments') a), '[]'::jsonb)) ELSE {content} END")


_FINISH = f"""
WITH u AS (
  UPDATE messages SET status = $2, provider = COALESCE($4, provider), provider_message_id = COALESCE($5, provider_message_id),
         failure_reason = $6, lease_until = NULL, next_attempt_at = NULL, updated_at = now(),
         {purge_content_sql("messages")}
  WHERE id = $1 AND status = 'sending' RETURNING {_MESSAGE_COLUMNS}
), ev AS (
  INSERT INTO message_events (message_id, type, detail, created_at) SELECT id, $3, $7::jsonb, now() FROM u RETURNING id
), wh_source AS (
  SELECT u.tenant_id, u.mode, u.channel || '.' || u.status AS type, u.id AS message_id,
         {message_data_sql("u", ", 'Reason', u.failure_reason")} AS data FROM u
){fanout_sql("wh_source", request="$8::text")}{rollup_sql("u")}
SELECT id FROM ev
"""

# The outcomes of many attempts in one statement (tasks/platform/outcomes.py writes the outcomes that
# wait together at a worker this way): each row of ``i`` is one :func:`finish`, and every message
# updated gets its event, its webhook events and its count as alone; one commit (one WAL flush) for all.
# The input's columns are named apart from the messages' so that RETURNING reads the messages' own.
_FINISH_MANY = f"""
WITH i AS (
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::text[])
    AS i(pk, new_status, event_type, new_provider, new_provider_message_id, new_failure_reason, event_detail,
         new_request)
), u AS (
  UPDATE messages SET status = i.new_status, provider = COALESCE(i.new_provider, messages.provider),
         provider_message_id = COALESCE(i.new_provider_message_id, messages.provider_message_id),
         failure_reason = i.new_failure_reason, lease_until = NULL, next_attempt_at = NULL, updated_at = now(),
         {purge_content_sql("messages")}
  FROM i WHERE messages.id = i.pk AND messages.status = 'sending' RETURNING {_MESSAGE_COLUMNS}
), ev AS (
  INSERT INTO message_events (message_id, type, detail, created_at)
  SELECT u.id, i.event_type, i.event_detail::jsonb, now() FROM u JOIN i ON i.pk = u.id RETURNING message_id
), wh_source AS (
  SELECT u.tenant_id, u.mode, u.channel || '.' || u.status AS type, u.id AS message_id,
         {message_data_sql("u", ", 'Reason', u.failure_reason")} AS data FROM u
){fanout_sql("wh_source", request="(SELECT i.new_request FROM i WHERE i.pk = ev.message_id)")}{rollup_sql("u")}
SELECT message_id FROM ev
"""

_DEFER = f"""
WITH u AS (
  {LEASED.release_sql("status = 'queued', failure_reason = $3, updated_at = now()", "now() + make_interval(secs => $2)")}
  RETURNING {_MESSAGE_COLUMNS}
), ev AS (
  INSERT INTO message_events (message_id, type, detail, created_at)
  SELECT id, 'deferred', jsonb_build_object('Reason', $3::text, 'RetryInSeconds', $2::float), now() FROM u RETURNING id
), wh_source AS (
  SELECT u.tenant_id, u.mode, u.channel || '.deferred' AS type, u.id AS message_id,
         {message_data_sql("u", ", 'Reason', $3::text, 'RetryInSeconds', $2::float")} AS data FROM u
){fanout_sql("wh_source", request="$4::text")}
SELECT id FROM ev
"""


# What delivery re-checks before handing a claimed message to a provider, in one statement (one
# round trip instead of one query each): the sender domain's row (verified, its sealed DKIM key, and
# whether its last conclusive check found the return-path CNAME: docs/bounces.md),
# whether the recipient is suppressed, whether a platform block entry names one of its candidates
# (models/platform/blocklist.py: candidates), the month's sends when the account has a quota, and a
# stamp of the account's provider rows for the channel (count, newest change) that keys the worker's
# cache of the resolved configuration (tasks/platform/delivery.py), so a change is seen by the next message.
_SEND_COUNT = " + ".join(f"COALESCE(SUM({name}), 0)" for name in SEND_COUNTERS)
_PRESEND = f"""
SELECT d.verified, d.dkim_selector, d.dkim_private_key, COALESCE(d.return_path, false) AS return_path,
  EXISTS (SELECT 1 FROM suppressions s WHERE s.tenant_id = $1 AND s.channel = $2 AND s.address = $3) AS suppressed,
  EXISTS (SELECT 1 FROM block_entries e JOIN unnest($4::text[], $5::text[]) AS c(kind, value)
          ON e.kind = c.kind AND e.value = c.value) AS blocked,
  CASE WHEN $7::text IS NOT NULL THEN
    (SELECT {_SEND_COUNT} FROM usage_counters WHERE tenant_id = $1 AND period = $7::text) END AS sends,
  CASE WHEN $8::bool THEN
    (SELECT count(*) || '/' || COALESCE(max(updated_at)::text, '') || '/' || COALESCE(max(id), 0)
     FROM provider_configs WHERE tenant_id = $1 AND channel = $2) END AS provider_stamp,
  CASE WHEN $2 = 'push' THEN
    (SELECT platform FROM push_devices WHERE tenant_id = $1 AND token = $9::text) END AS device_platform
FROM (SELECT 1) AS one LEFT JOIN LATERAL (
  SELECT verified_at IS NOT NULL AS verified, dkim_selector, dkim_private_key,
    (SELECT c.detail->'Records' @> '[{{"Purpose": "return-path", "Found": true}}]'::jsonb FROM sender_domain_checks c
     WHERE c.domain_id = sender_domains.id AND c.outcome <> 'unreachable' ORDER BY c.id DESC LIMIT 1) AS return_path
  FROM sender_domains WHERE tenant_id = $1 AND name = $6::text) AS d ON true
"""


async def claim(connection, message_pk: int, lease_seconds: int) -> dict | None:
    """Take a message for delivery: only one worker at a time, and never a finished one."""
    rows = await _rows(connection, _CLAIM, [message_pk, None, float(lease_seconds)])
    return rows[0] if rows else None


async def presend(connection, tenant_pk: int, channel: str, address: str, blocklist: list[tuple[str, str]],
                  sender_domain: str | None, quota_period: str | None, tenant_providers: bool,
                  recipient: str) -> dict:
    """The facts delivery re-checks (see _PRESEND): ``address`` is the recipient as suppressions
    hold it (lower case), ``blocklist`` its (kind, value) candidates, ``sender_domain`` the e-mail
    sender's domain (None: no domain row), ``quota_period`` the month to count sends in (None: no
    quota), ``tenant_providers`` whether to stamp the account's provider rows (live messages); and
    for push, the platform of the registered device whose token is ``recipient`` (None: none)."""
    rows = await _rows(connection, _PRESEND, [
        tenant_pk, channel, address, [kind for kind, _ in blocklist], [value for _, value in blocklist],
        sender_domain, quota_period, tenant_providers, recipient])
    return rows[0]


async def finish(connection, message_pk: int, status: MessageStatus, *, event: str | None = None,
                 provider: str | None = None, provider_message_id: str | None = None,
                 failure_reason: str | None = None, detail: dict | None = None) -> bool:
    rows = await _rows(
        connection, _FINISH, [message_pk, status.value, event or status.value, provider, provider_message_id,
                              failure_reason, json.dumps(detail) if detail is not None else None, request_id()])
    return bool(rows)


async def finish_many(connection, outcomes: list[tuple]) -> set[int]:
    """Several :func:`finish` in one statement: ``outcomes`` holds (message pk, status, event,
    provider, provider message id, failure reason, detail, request id) tuples, one per message (the
    request id, which the webhook jobs the outcome causes carry, may be left off: none); returns the
    pks of the messages it finished (a message no longer ``sending`` is left alone, as by finish)."""
    columns = list(zip(*((*outcome, None)[:8] for outcome in outcomes))) if outcomes else [()] * 8
    rows = await _rows(connection, _FINISH_MANY, [
        list(columns[0]), [getattr(status, "value", status) for status in columns[1]],
        [event or getattr(status, "value", status) for status, event in zip(columns[1], columns[2])],
        list(columns[3]), list(columns[4]), list(columns[5]),
        [json.dumps(detail) if detail is not None else None for detail in columns[6]], list(columns[7])])
    return {row["message_id"] for row in rows}


async def defer(connection, message_pk: int, delay_seconds: float, reason: str) -> bool:
    rows = await _rows(connection, _DEFER, [message_pk, float(delay_seconds), reason, request_id()])
    return bool(rows)


# Cancelling a scheduled (or not yet attempted) e-mail: queued and never attempted -> failed, with a
# ``cancelled`` event and the email.failed webhook event; its job, still in the broker, finds nothing
# to claim. A message an attempt has begun (attempts > 0) is past cancelling.
CANCELLED_REASON = "Cancelled: by the sender before sending"
_CANCEL = f"""
WITH u AS (
  UPDATE messages SET status = 'failed', failure_reason = $4, lease_until = NULL, next_attempt_at = NULL,
         updated_at = now(), {purge_content_sql("messages")}
  WHERE tenant_id = $1 AND mode = $2 AND public_id = $3 AND channel = 'email' AND status = 'queued' AND attempts = 0
  RETURNING {_MESSAGE_COLUMNS}
), ev AS (
  INSERT INTO message_events (message_id, type, detail, created_at)
  SELECT id, 'cancelled', jsonb_build_object('Reason', $4::text), now() FROM u RETURNING id
), wh_source AS (
  SELECT u.tenant_id, u.mode, u.channel || '.' || u.status AS type, u.id AS message_id,
         {message_data_sql("u", ", 'Reason', u.failure_reason")} AS data FROM u
){fanout_sql("wh_source", request="$5::text")}{rollup_sql("u")}
SELECT (SELECT count(*) FROM ev) AS cancelled,
       (SELECT status FROM messages WHERE tenant_id = $1 AND mode = $2 AND public_id = $3 AND channel = 'email')
         AS status
"""


async def cancel(connection, tenant_pk: int, mode: str, public_id: str) -> str | None:
    """Cancel an e-mail of the account (in the caller's mode): ``"cancelled"``, the status it has
    when it can no longer be cancelled, or None when the account has no such e-mail."""
    [row] = await _rows(connection, _CANCEL, [tenant_pk, mode, public_id, CANCELLED_REASON, request_id()])
    if row["cancelled"]:
        return "cancelled"
    return row["status"]
