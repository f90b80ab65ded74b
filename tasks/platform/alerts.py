"""Platform alert e-mail: ``platform_alerts.notify`` tells platform staff that a rule fired, through
Herald's own pipeline (docs/operator.md).

The job (enqueued by schedules/platform/alerts.py with the firing) posts one e-mail per staff
address to ``POST {PLATFORM_URL}/v1/emails/send`` with the key identity e-mail uses
(IDENTITY_MAIL_KEY, the "Herald" system account's, from IDENTITY_MAIL_FROM), each with
``Idempotency-Key: platform-alert-<event>-<address hash>``, so a repeat never sends twice, then
stamps the event ``notified_at``. Staff addresses: an allowlist entry's own address, else its user's
primary address in the identity database. A platform outage (transport error, 5xx, 429, 409) is
retried by Dramatiq with backoff; a refusal (401, 403, 422: configuration) is logged and dropped;
without the key nothing is sent and a warning is logged.
"""

from __future__ import annotations

import hashlib
import logging

import dramatiq
import httpx
from tortoise import connections

from kit.actors import Actor
from kit.settings import get_settings

log = logging.getLogger("herald.platform_alerts")

TIMEOUT = httpx.Timeout(15.0, connect=5.0)
METRIC_TEXT = {"failure_rate": "failure rate", "bounce_rate": "bounce rate", "queue_depth": "queue depth",
               "relay_lag": "relay lag (seconds)"}


class Unavailable(Exception):
    """The platform could not take the e-mail now: Dramatiq retries the job."""


async def staff_addresses() -> list[str]:
    rows = await connections.get("platform").execute_query_dict("SELECT user_id, email FROM staff_members")
    addresses = {row["email"] for row in rows if row["email"]}
    by_id = [row["user_id"] for row in rows if not row["email"] and row["user_id"]]
    if by_id:
        found = await connections.get("identity").execute_query_dict(
            "SELECT email FROM users WHERE public_id = ANY($1::text[])", [by_id])
        addresses |= {row["email"].lower() for row in found}
    return sorted(addresses)


def message(sender: str, to: str, event: dict) -> dict:
    what = METRIC_TEXT.get(event["metric"], event["metric"])
    scope = " ".join(part for part in (event["channel"], event["tenant"]) if part)
    text = (f"The platform alert \"{event['name']}\" fired: {what}{f' ({scope})' if scope else ''} is "
            f"{event['value']:g}, above its threshold {event['threshold']:g} over {event['window_minutes']} "
            f"minutes.\n\nFirings: GET /api/admin/platform-alerts/events\n")
    return {"Source": sender, "Destination": {"ToAddresses": [to]},
            "Message": {"Subject": {"Data": f"[Herald] Alert fired: {event['name']}"[:200]},
                        "Body": {"Text": {"Data": text}}},
            "Tags": {"system": "platform", "kind": "platform-alert"}}


async def notify(event_pk: int) -> str:
    settings = get_settings()
    db = connections.get("platform")
    rows = await db.execute_query_dict(
        "SELECT e.public_id, e.value, e.threshold, e.notified_at, r.name, r.metric, r.channel, r.window_minutes, "
        "t.public_id AS tenant FROM platform_alert_events e JOIN platform_alert_rules r ON r.id = e.rule_id "
        "LEFT JOIN tenants t ON t.id = r.tenant_id WHERE e.id = $1 AND e.kind = 'fired'", [event_pk])
    if not rows or rows[0]["notified_at"] is not None:
        return "skipped"
    event = rows[0]
    if not (settings.identity_mail_key and settings.identity_mail_from):
        log.warning("platform alert %s: no e-mail sent, IDENTITY_MAIL_KEY and IDENTITY_MAIL_FROM are not set",
                    event["public_id"])
        return "unconfigured"
    url = f"{settings.internal_url_of('platform')}/v1/emails/send"
    async with httpx.AsyncClient(timeout=TIMEOUT) as client:
        for address in await staff_addresses():
            key = f"platform-alert-{event['public_id']}-{hashlib.sha256(address.encode()).hexdigest()[:16]}"
            try:
                response = await client.post(url, json=message(settings.identity_mail_from, address, event), headers={
                    "Authorization": f"Bearer {settings.identity_mail_key}", "Idempotency-Key": key})
            except httpx.TransportError as exc:
                raise Unavailable(f"{type(exc).__name__}: {exc}"[:300]) from None
            if response.status_code >= 500 or response.status_code in (409, 429):
                raise Unavailable(f"HTTP {response.status_code}")
            if not 200 <= response.status_code < 300:
                log.error("platform alert %s: the platform refused the e-mail to staff (HTTP %s: %s); check "
                          "IDENTITY_MAIL_KEY and IDENTITY_MAIL_FROM", event["public_id"], response.status_code,
                          response.text[:300])
    await db.execute_query("UPDATE platform_alert_events SET notified_at = now() WHERE id = $1", [event_pk])
    return "sent"


@dramatiq.actor(
    actor_name=Actor.PLATFORM_ALERT_NOTIFY.name,
    queue_name=Actor.PLATFORM_ALERT_NOTIFY.queue.value,
    max_retries=50,
    min_backoff=1_000,
    max_backoff=300_000,
    retry_when=lambda retries, exc: isinstance(exc, Unavailable) and retries < 50,
    time_limit=120_000,
)
async def notify_staff(event_pk: int) -> None:
    outcome = await notify(event_pk)
    log.debug("platform alert event %s: %s", event_pk, outcome)
