"""The webhook event catalog, and the fan-out that turns what happened into deliveries.

Every channel has the same life cycle, so the catalog is ``<channel>.<what>`` for the channels
``email``, ``sms``, ``push`` and ``whatsapp``:

=================  =========================================================================
``*.queued``       accepted by the API (the 202); produced in the accept transaction
``*.deferred``     a transient provider error; another attempt follows (``RetryInSeconds``)
``*.sent``         the provider accepted the message
``*.delivered``    the provider reports delivery to the recipient
``*.failed``       will not be sent (``Reason``): refused before sending, permanent provider
                   error, or attempts exhausted
``*.bounced``      the provider reports a bounce (after ``sent``)
``*.complained``   the recipient marked the message as spam (e-mail)
=================  =========================================================================

Plus ``webhook.endpoint.disabled`` (an endpoint failing for days was turned off),
``webhook.test`` (sent on request to one endpoint) and ``email.received`` (a mailbox received a
message: the mail system tells the platform through an internal route). Opens and clicks are not tracked, so there
are no ``*.opened`` / ``*.clicked`` events. docs/webhooks.md documents the payloads.

Events are produced by the pipeline, through the outbox, in the transaction of what they
describe: :func:`fanout_sql` is a set of CTEs appended to a message transition's statement
(one round trip, nothing when no endpoint subscribes), :func:`emit` does the same for one
event from Python. Each inserts the event, one ``pending`` delivery per enabled endpoint of the
tenant and mode that subscribes to its type, and one outbox row per delivery.
"""

from __future__ import annotations

import json
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from kit.actors import Actor
from models.outbox import insert_sql, request_id

CHANNELS = ("email", "sms", "push", "whatsapp")
MESSAGE_EVENTS: dict[str, str] = {
    "queued": "accepted by the API; delivery is queued",
    "deferred": "a transient provider error; another attempt follows",
    "sent": "the provider accepted the message",
    "delivered": "the provider reports delivery to the recipient",
    "failed": "the message will not be sent (see Reason)",
    "bounced": "the provider reports a bounce",
    "complained": "the recipient marked the message as spam",
}
ENDPOINT_DISABLED = "webhook.endpoint.disabled"
TEST_EVENT = "webhook.test"
# Produced by another system through the platform's internal events route (app/platform/webhook/internal.py).
EMAIL_RECEIVED = "email.received"
FOREIGN_EVENTS = frozenset({EMAIL_RECEIVED})

CATALOG: dict[str, str] = {
    **{f"{channel}.{what}": text for channel in CHANNELS for what, text in MESSAGE_EVENTS.items()
       if not (what == "complained" and channel != "email")},
    ENDPOINT_DISABLED: "an endpoint failing for days was disabled",
    TEST_EVENT: "a test event sent on request to one endpoint",
    EMAIL_RECEIVED: "a mailbox of the account received a message (the mail system)",
}

# The public id of a row made in SQL: same shape as kit.ids.public_id (24 hex).
_ID_SQL = "'{prefix}_' || substr(md5(gen_random_uuid()::text), 1, 24)"


def _new_id(prefix: str) -> str:
    return _ID_SQL.format(prefix=prefix)


def fanout_sql(source: str, request: str = "NULL") -> str:
    """CTEs (each starting with a comma) to append after the CTEs of a statement.

    ``source`` names a CTE yielding one row per event with columns ``tenant_id``, ``mode``,
    ``type``, ``message_id`` (or NULL) and ``data`` (jsonb). The event is inserted only when an
    enabled endpoint of that tenant and mode subscribes to the type. ``request`` is the SQL of the
    request id the deliveries' jobs carry (models/outbox.py: insert_sql), over a delivery ``d``
    and its event ``ev`` (its ``message_id``): a parameter, or a look-up by message when one
    statement writes several requests' messages (app/platform/message/statement.py)."""
    subscribed = ("e.tenant_id = s.tenant_id AND e.mode = s.mode AND e.enabled "
                  "AND (e.event_types ? '*' OR e.event_types ? s.type)")
    return f"""
, wh_events AS (
  INSERT INTO webhook_events (public_id, tenant_id, mode, type, message_id, data, created_at)
  SELECT {_new_id('evt')}, s.tenant_id, s.mode, s.type, s.message_id, s.data, now()
  FROM {source} s
  WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE {subscribed})
  RETURNING id, tenant_id, mode, type, message_id
), wh_deliveries AS (
  INSERT INTO webhook_deliveries (public_id, endpoint_id, event_id, tenant_id, status, attempts, next_attempt_at,
                                  enqueued_at, one_shot, created_at, updated_at)
  SELECT {_new_id('whd')}, e.id, s.id, s.tenant_id, 'pending', 0, now(), now(), false, now(), now()
  FROM wh_events s JOIN webhook_endpoints e ON {subscribed}
  RETURNING id, event_id
), wh_outbox AS (
  {insert_sql(Actor.WEBHOOK_DELIVER, "wh_deliveries d JOIN wh_events ev ON ev.id = d.event_id", arg="d.id",
              request=request)}
)"""


def message_data_sql(alias: str, extra: str = "") -> str:
    """The ``Data`` of a message event, built from a row of ``messages`` named ``alias``."""
    return (f"jsonb_strip_nulls(jsonb_build_object('MessageId', {alias}.public_id, 'Channel', {alias}.channel, "
            f"'Status', {alias}.status, 'To', {alias}.recipient, 'From', {alias}.sender, "
            f"'Subject', {alias}.subject, 'Tags', {alias}.tags{extra}))")


async def emit(connection: BaseDBAsyncClient, *, tenant_pk: int, mode: str, event_type: str, data: dict[str, Any],
               message_pk: int | None = None, endpoint_pk: int | None = None,
               always_record: bool = False) -> dict[str, Any] | None:
    """One event and its deliveries, in the caller's transaction (``connection``).

    ``endpoint_pk`` targets one endpoint whatever it subscribes to (the test event). With
    ``always_record`` the event row is kept even when nobody subscribes (events the tenant must be
    able to look up, like an endpoint being disabled). Returns ``{event_id, delivery_ids}`` (public
    ids) or None when nothing was recorded."""
    if event_type not in CATALOG:
        raise ValueError(f"unknown webhook event type {event_type!r}")
    target = ("e.id = $6 AND e.tenant_id = $1" if endpoint_pk is not None else
              "e.tenant_id = $1 AND e.mode = $2::text AND e.enabled AND (e.event_types ? '*' OR e.event_types ? $3::text)")
    keep = ("true" if always_record or endpoint_pk is not None
            else f"EXISTS (SELECT 1 FROM webhook_endpoints e WHERE {target})")
    rows = await connection.execute_query_dict(f"""
WITH ev AS (
  INSERT INTO webhook_events (public_id, tenant_id, mode, type, message_id, data, created_at)
  SELECT {_new_id('evt')}, $1, $2::text, $3::text, $4::bigint, $5::jsonb, now() WHERE {keep}
  RETURNING id, public_id
), dl AS (
  INSERT INTO webhook_deliveries (public_id, endpoint_id, event_id, tenant_id, status, attempts, next_attempt_at,
                                  enqueued_at, one_shot, created_at, updated_at)
  SELECT {_new_id('whd')}, e.id, ev.id, $1, 'pending', 0, now(), now(), false, now(), now()
  FROM ev JOIN webhook_endpoints e ON {target}
  RETURNING id, public_id
), ob AS (
  {insert_sql(Actor.WEBHOOK_DELIVER, "dl", request=f"${7 if endpoint_pk is not None else 6}::text")}
)
SELECT ev.public_id AS event_id, dl.public_id AS delivery_id FROM ev LEFT JOIN dl ON true
""", [tenant_pk, mode, event_type, message_pk, json.dumps(data),
      *([endpoint_pk] if endpoint_pk is not None else []), request_id()])
    if not rows:
        return None
    return {"event_id": rows[0]["event_id"], "delivery_ids": [row["delivery_id"] for row in rows if row["delivery_id"]]}
