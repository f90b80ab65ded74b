"""Provider delivery receipts (Twilio status callbacks, ...) on a message's timeline.

Every receipt appends a timeline event. A final one also moves the message, only from ``sent``:
``delivered`` -> ``delivered``; ``undelivered``/``failed`` -> ``failed`` with the provider's
error code as the reason; and produces the matching webhook event (models/platform/events.py).
A receipt that overtakes the worker's own ``sent`` (the message still ``sending``) is recorded
on the timeline without moving the message.
"""

from __future__ import annotations

import json

from tortoise.backends.base.client import BaseDBAsyncClient

from models.platform.events import emit
from models.platform.report import rollup_sql


# The move and its report counter (models/platform/report.py) in one statement.
_MOVE = f"""
WITH u AS (
  UPDATE messages SET status = $3, failure_reason = COALESCE($4, failure_reason), updated_at = now()
  WHERE id = $1 AND status = $2 RETURNING id, tenant_id, mode, channel, status, template
){rollup_sql("u")}
SELECT id FROM u
"""


async def record_receipt(conn: BaseDBAsyncClient, tenant_pk: int, channel: str, provider_message_id: str,
                         provider_status: str, new_status: str | None, detail: dict) -> str | None:
    """In the caller's transaction ``conn`` (the message row is locked until it ends). Returns the
    message's public id, or None when no message of this tenant has that provider id."""
    rows = await conn.execute_query_dict(
        "SELECT id, public_id, mode, status, recipient, sender, tags FROM messages "
        "WHERE tenant_id = $1 AND channel = $2 AND provider_message_id = $3 FOR UPDATE",
        [tenant_pk, channel, provider_message_id])
    if not rows:
        return None
    message = rows[0]
    moved = False
    if new_status is not None:
        reason = f"ProviderError: {provider_status} ({detail.get('ErrorCode')})" if new_status == "failed" else None
        moved = bool(await conn.execute_query_dict(_MOVE, [message["id"], "sent", new_status, reason]))
    event = new_status if moved else "receipt"
    await conn.execute_query(
        "INSERT INTO message_events (message_id, type, detail, created_at) VALUES ($1, $2, $3::jsonb, now())",
        [message["id"], event, json.dumps({"ProviderStatus": provider_status, **detail})])
    if moved:
        tags = message["tags"]
        data = {"MessageId": message["public_id"], "Channel": channel, "Status": new_status,
                "To": message["recipient"], "From": message["sender"],
                "Tags": json.loads(tags) if isinstance(tags, str) else tags, "ProviderStatus": provider_status}
        # In the receipt's transaction: if the event cannot be written, the callback fails and
        # the provider delivers it again, rather than the event being lost.
        await emit(conn, tenant_pk=tenant_pk, mode=message["mode"], event_type=f"{channel}.{new_status}",
                   message_pk=message["id"], data=data)
    return message["public_id"]
