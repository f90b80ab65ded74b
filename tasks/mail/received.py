"""``mail_received.announce`` (queue ``webhooks``): a message a mailbox received becomes the
``email.received`` event of the account's webhooks, through the platform's
``POST /internal/v1/tenants/{account}/events`` (service credential).

Enqueued through the mail system's outbox in the transaction that stored the message
(app/mail/received/service.py), published by the mail relay. The platform unreachable, a 5xx or
429: retried with backoff (Dramatiq, up to a day). A message deleted meanwhile, or an account the
platform no longer knows (404), announces nothing. A job delivered twice announces twice: webhook
events are at least once (docs/webhooks.md), ``ReceivedId`` tells a receiver it saw the message.
"""

from __future__ import annotations

import logging

import dramatiq
import httpx
from tortoise import connections

from kit.actors import Actor
from kit.settings import get_settings
from models.mail import ReceivedMessage
from models.mail.received import event_data
from models.platform.events import EMAIL_RECEIVED
from tasks.calls import call

log = logging.getLogger("herald.mail.received")

SYSTEM = Actor.MAIL_RECEIVED_ANNOUNCE.system
TIMEOUT = httpx.Timeout(15.0, connect=5.0)


async def announce(received_pk: int) -> str:
    """``announced`` (with the event id, or none when no endpoint subscribes), ``gone`` or
    ``refused``; raises Unavailable to be retried."""
    row = await (ReceivedMessage.filter(id=received_pk).using_db(connections.get(SYSTEM))
                 .prefetch_related("mailbox").first())
    if row is None:
        return "gone"
    data = event_data(row, row.mailbox.public_id, row.mailbox.address, get_settings().url_of("mail"))
    response = await call("platform", f"/internal/v1/tenants/{row.tenant_id}/events",
                          {"Type": EMAIL_RECEIVED, "Data": data}, timeout=TIMEOUT, retryable=(429,),
                          agent="herald-mail")
    if response.status_code == 404:
        return "gone"
    if response.status_code != 202:
        log.error("the platform refused email.received for %s: %s %s", row.public_id, response.status_code,
                  response.text[:300])
        return "refused"
    return "announced"


@dramatiq.actor(actor_name=Actor.MAIL_RECEIVED_ANNOUNCE.name, queue_name=Actor.MAIL_RECEIVED_ANNOUNCE.queue.value,
                max_retries=20, min_backoff=5_000, max_backoff=3_600_000, time_limit=60_000,
                max_age=86_400_000)
async def announce_received(received_pk: int) -> None:
    outcome = await announce(received_pk)
    log.debug("received message %s: %s", received_pk, outcome)
