"""Delivering messages: one actor per channel (``<channel>.deliver`` on queue ``<channel>``).

The actor gets a message id and:
1. claims it (queued -> sending, with a lease renewed every third of itself while the attempt
   runs): a duplicate from the broker finds nothing to claim and does nothing. A worker killed
   between the provider accepting a message and ``sent`` being recorded leaves it ``sending``;
   once the lease runs out the reconciler hands it back and it is sent again (the crash window,
   docs/messages.md): an e-mail keeps its Message-ID, HTTP providers get the same idempotency key;
2. re-checks that it may still go: the sender domain still verified (e-mail), the recipient
   not suppressed nor blocked, the tenant within its quota; otherwise the message fails, with
   the reason. The claim and every re-check are two statements on one pooled connection (the
   re-checks also bring the sender domain's sealed DKIM key and a stamp of the account's
   provider rows, whose resolved configuration the worker caches by that stamp);
3. calls the provider (the sink for test-mode keys; otherwise the tenant's configured provider,
   else the platform default; a push device by the provider for its platform and kind of token,
   see tasks/providers.py) with the message id as idempotency key; an e-mail carries the
   sender domain's DKIM key, a push message its device's platform;
4. records the outcome: sent (with what the provider reports, e.g. SMS segments); or deferred
   and retried with backoff (a provider's Retry-After honoured) on a transient error, failed
   after MAX_ATTEMPTS; or failed on a permanent one (a push token declared invalid also deletes
   the device); or bounced on an SMTP 5xx at RCPT, the address then suppressed (docs/bounces.md).
   Any other exception of a provider (a bug, an answer it did not expect) is retried like a
   transient error and fails the message once the attempts are spent; its reason names only the
   exception's type (the traceback is logged for the operator).
Each step is a transition of the message that also appends to its timeline; the outcomes of the
attempts that end together at a worker process are written in one statement (tasks/platform/outcomes.py). Each attempt's outcome
and the provider call's time are counted for the worker's exporter (kit/metrics.py).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import time
from collections import OrderedDict
from email.utils import parseaddr

import dramatiq
from tortoise import connections

from kit import verp
from kit.actors import Actor
from kit.metrics import DELIVERIES, NO_PROVIDER, PROVIDER_CALL_SECONDS
from kit.sealing import PLATFORM
from kit.settings import get_settings
from models.platform.device import forget_device
from models.platform.blocklist import candidates
from models.platform.domain import DKIM_KEY, RETURN_PATH_LABEL, SANDBOX_DOMAIN
from models.platform.message import (ATTACHMENT_SEAL, LEASED, MAX_ATTEMPTS, RETRIES, Channel, MessageStatus, claim,
                                     defer, presend)
from models.platform.provider_config import tenant_provider
from models.platform.returns import bounce_at_handoff
from models.platform.usage import period_of
from providers.base import Attachment, DkimKey, Outgoing
from providers.errors import (InvalidDeviceToken, PermanentProviderError, ProviderConfigError, RecipientBounced,
                              TransientProviderError)
from tasks.lease import holding, retry_in
from tasks.platform.outcomes import finish
from tasks.providers import push_route

log = logging.getLogger("herald.delivery")

_settings = get_settings()
LEASE_SECONDS = _settings.delivery_lease_seconds
# How long one attempt may run (the lease is renewed meanwhile); then Dramatiq cancels it.
TIME_LIMIT_SECONDS = 115
_providers = None


def providers():
    global _providers
    if _providers is None:
        from tasks.providers import ProviderSet

        _providers = ProviderSet(_settings.providers, _settings.provider_configs,
                                 allow_loopback=_settings.webhooks_allow_loopback)
    return _providers


def why_not(message: dict, facts: dict) -> str | None:
    """The reason this message may no longer go, or None (``facts``: :func:`presend`'s row)."""
    if message["channel"] == "email" and message["sender"]:
        # As sender_domain_verified (models/platform/domain.py): the sandbox serves test keys.
        sandbox = message["mode"] == "test" and _sender_domain(message) == SANDBOX_DOMAIN
        if not sandbox and not facts["verified"]:
            return "DomainNotVerified: the sender domain is no longer verified"
    if facts["suppressed"]:
        return "SuppressedAddress: the recipient is on the suppression list"
    if facts["blocked"]:  # docs/operator.md
        return "SuppressedAddress: the recipient is on the platform blocklist"
    if message["effective_quota"] is not None and int(facts["sends"]) > message["effective_quota"]:
        return "QuotaExceeded: the account's monthly quota was lowered below what it had accepted"
    return None


def _sender_domain(message: dict) -> str | None:
    if message["channel"] != "email" or not message["sender"]:
        return None
    return parseaddr(message["sender"])[1].lower().rpartition("@")[2]


def _return_path(message: dict, facts: dict) -> str | None:
    """An e-mail's VERP envelope sender (kit/verp.py): on the sender domain's return-path name when
    its CNAME was found, else on the platform's own (docs/bounces.md)."""
    if message["channel"] != "email":
        return None
    domain = _sender_domain(message)
    host = domain if domain and facts["return_path"] else _settings.mail_domain
    return verp.return_path(message["public_id"], f"{RETURN_PATH_LABEL}.{host}")


async def _check(connection, message: dict) -> dict:
    """One statement for every re-check and what the provider call needs from the database
    (models/platform/message.py: presend)."""
    return await presend(
        connection, message["tenant_id"], message["channel"], message["recipient"].lower(),
        candidates(message["recipient"]), _sender_domain(message),
        period_of() if message["effective_quota"] is not None else None, message["mode"] != "test",
        message["recipient"])


# The account's resolved provider configuration per (tenant, channel, route, stamp of its rows): the
# stamp changes with any change of the rows, so the next message sees it; the secrets are unsealed once.
_CONFIG_CACHE_SIZE = 1024
_tenant_configs: OrderedDict = OrderedDict()


async def _tenant_config(tenant_pk: int, channel: str, route: str | None, stamp: str | None):
    if stamp is None or stamp.startswith("0/"):
        return None
    slot = (tenant_pk, channel, route, stamp)
    if slot in _tenant_configs:
        _tenant_configs.move_to_end(slot)
        return _tenant_configs[slot]
    resolved = await tenant_provider(tenant_pk, channel, route)
    _tenant_configs[slot] = resolved
    while len(_tenant_configs) > _CONFIG_CACHE_SIZE:
        _tenant_configs.popitem(last=False)
    return resolved


@functools.lru_cache(maxsize=1024)
def _unsealed_dkim_key(sealed: str) -> bytes:
    """A sender domain's private key, unsealed once per sealed value (a new key is a new value)."""
    return PLATFORM.unseal_text(DKIM_KEY, sealed)


def _dkim_key(message: dict, facts: dict) -> DkimKey | None:
    """The sender domain's DKIM key, as SenderDomain.signing_key gives it."""
    if not facts["dkim_private_key"] or not facts["dkim_selector"]:
        return None
    return DkimKey(_sender_domain(message), facts["dkim_selector"], _unsealed_dkim_key(facts["dkim_private_key"]))


async def deliver(message_pk: int) -> str:
    """Deliver one message; returns what happened (for logs and tests)."""
    connection = connections.get("platform")
    async with contextlib.AsyncExitStack() as attempt:
        # The claim and the re-checks share one pooled connection (one checkout, one reset).
        async with connection.acquire_connection() as held:
            message = await claim(held, message_pk, LEASE_SECONDS)
            if message is None:
                return "skipped"
            # The lease is renewed every third of itself while this attempt runs (tasks/lease.py): a
            # slow provider keeps its message, a killed worker leaves it to the reconciler.
            await attempt.enter_async_context(
                holding(connection, LEASED, message_pk, message["attempts"], LEASE_SECONDS))
            facts = await _check(held, message)
        return await _deliver_claimed(connection, message, facts)


async def _deliver_claimed(connection, message: dict, facts: dict) -> str:
    message_pk = message["id"]
    reason = why_not(message, facts)
    if reason is not None:
        await finish(connection, message_pk, MessageStatus.FAILED, failure_reason=reason,
                     detail={"Reason": reason})
        counted(message["channel"], None, "refused")
        return "failed"
    channel, tenant_pk, live = message["channel"], message["tenant_id"], message["mode"] != "test"
    platform = facts["device_platform"]  # push: the registered device's, None for an unknown token
    tenant_config = await _tenant_config(tenant_pk, channel, push_route(platform, message["recipient"]),
                                         facts["provider_stamp"]) if live else None
    dkim = _dkim_key(message, facts) if channel == "email" and live and message["sender"] else None
    content, files = unsealed_attachments(_json(message["content"]))
    outgoing = Outgoing(
        message_id=message["public_id"], tenant_id=message["tenant_public_id"], channel=channel,
        recipient=message["recipient"], sender=message["sender"], subject=message["subject"],
        content=content, tags=_json(message["tags"]), mode=message["mode"],
        dkim=dkim, platform=platform, return_path=_return_path(message, facts), attachments=files,
    )
    provider_key = None
    try:
        provider = providers().for_message(channel, message["mode"], tenant_config)
        provider_key = provider.key
        receipt = await _timed_send(provider, channel, outgoing)
    except TransientProviderError as error:
        return await _retry_or_give_up(connection, message, provider_key, str(error), error.retry_after)
    except RecipientBounced as error:  # a hard bounce at hand-off (docs/bounces.md)
        await bounce_at_handoff(message_pk, provider_key, str(error))
        return counted(channel, provider_key, "bounced")
    except (PermanentProviderError, ProviderConfigError) as error:
        detail = {"Reason": str(error)}
        if isinstance(error, InvalidDeviceToken):
            detail["DeviceRemoved"] = bool(await forget_device(tenant_pk, message["recipient"]))
        if isinstance(error, ProviderConfigError):
            log.error("provider configuration error (tenant %s, %s): %s", message["tenant_public_id"], channel,
                      error)
        await finish(connection, message_pk, MessageStatus.FAILED, provider=provider_key,
                     failure_reason=f"{type(error).__name__}: {error}", detail=detail)
        return counted(channel, provider_key, "failed")
    except Exception as error:  # noqa: BLE001 - a provider's bug or an answer it did not expect
        log.exception("unexpected error from the %s provider (message %s, attempt %d)", provider_key or channel,
                      message["public_id"], message["attempts"])
        # The type only: the exception's text may quote what a remote server answered.
        reason = f"unexpected {type(error).__name__} in the {provider_key or channel} provider"
        return await _retry_or_give_up(connection, message, provider_key, reason, None)
    finally:
        await providers().close_retired()
    reported = {name: value for name, value in receipt.detail.items() if name[:1].isupper()}
    # The column holds 255 characters; whatever a remote service answered must not stop the record.
    await finish(connection, message_pk, MessageStatus.SENT, provider=provider_key,
                 provider_message_id=str(receipt.provider_message_id)[:255],
                 detail={"Provider": provider_key, **reported})
    return counted(channel, provider_key, "sent")


async def _timed_send(provider, channel: str, outgoing: Outgoing):
    """The provider's call, its time observed whatever it answered or raised."""
    started = time.perf_counter()
    try:
        return await provider.send(outgoing)
    finally:
        PROVIDER_CALL_SECONDS.labels(channel, provider.key).observe(time.perf_counter() - started)


def counted(channel: str, provider_key: str | None, outcome: str) -> str:
    """``outcome`` of one delivery attempt, counted (kit/metrics.py: DELIVERIES) and handed back."""
    DELIVERIES.labels(channel, provider_key or NO_PROVIDER, outcome).inc()
    return outcome


async def _retry_or_give_up(connection, message: dict, provider_key: str | None, reason: str,
                            retry_after: float | None) -> str:
    """Defer the message for another attempt (raises dramatiq.Retry), or fail it once its
    MAX_ATTEMPTS are spent (models/platform/message.py: RETRIES)."""
    delay = RETRIES.delay(message["attempts"], retry_after)
    if delay is None:
        await finish(connection, message["id"], MessageStatus.FAILED, provider=provider_key,
                     failure_reason=f"ProviderError: gave up after {MAX_ATTEMPTS} attempts: {reason}",
                     detail={"Reason": reason, "Attempts": message["attempts"]})
        return counted(message["channel"], provider_key, "failed")
    await defer(connection, message["id"], delay, reason)
    counted(message["channel"], provider_key, "deferred")
    raise retry_in(delay, reason) from None


def unsealed_attachments(content: dict) -> tuple[dict, tuple[Attachment, ...]]:
    """The content a provider sees (attachments listed by name, type and size, never sealed) and
    the files themselves, unsealed for this attempt (app/platform/message/attachments.py)."""
    stored = (content or {}).get("Attachments")
    if not stored:
        return content, ()
    files = tuple(Attachment(item["Filename"], item["ContentType"],
                             PLATFORM.unseal_text(ATTACHMENT_SEAL, item["Sealed"]))
                  for item in stored if item.get("Sealed"))
    listed = [{key: value for key, value in item.items() if key != "Sealed"} for item in stored]
    return {**content, "Attachments": listed}, files


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def _deliver_actor(channel: Channel):
    ref = Actor.deliver(channel.value)

    async def deliver_message(message_pk: int) -> None:
        outcome = await deliver(message_pk)
        log.debug("message %s: %s", message_pk, outcome)

    deliver_message.__name__ = f"deliver_{channel.value}"
    return dramatiq.actor(
        deliver_message,
        actor_name=ref.name,
        queue_name=ref.queue.value,
        # Unexpected errors (a database blip) retry quickly a few times; provider errors are
        # handled above. An attempt may run TIME_LIMIT_SECONDS, its lease renewed meanwhile.
        max_retries=MAX_ATTEMPTS + 5,
        min_backoff=1_000,
        max_backoff=300_000,
        time_limit=TIME_LIMIT_SECONDS * 1000,
        max_age=7 * 24 * 3600 * 1000,
    )


deliver_email = _deliver_actor(Channel.EMAIL)
deliver_sms = _deliver_actor(Channel.SMS)
deliver_push = _deliver_actor(Channel.PUSH)
deliver_whatsapp = _deliver_actor(Channel.WHATSAPP)
