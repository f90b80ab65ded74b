"""Confirming an Amazon SNS subscription: ``sns_subscriptions.confirm`` on queue ``webhooks``.

SNS asks an HTTPS subscriber to confirm with a signed ``SubscriptionConfirmation`` to the account's
SES callback (app/platform/relay_event/routes.py). The callback checks the signature, the topic and
the URL, and writes an outbox row with the account and the ``SubscribeURL``; this actor asks SNS
for it through the egress (kit/aws_sns.py). The URL is checked again against the account's topic as
configured now (a topic changed in between is not confirmed). SNS keeps a confirmation valid for
three days: an unreachable SNS is retried with backoff for a day.
"""

from __future__ import annotations

import logging

import dramatiq

from kit import aws_sns, egress
from kit.actors import Actor
from kit.settings import get_settings
from models.platform.provider_config import relay_config

log = logging.getLogger("herald.relay_events")


async def confirm(tenant_pk: int, url: str) -> str:
    """``confirmed``, or ``refused`` when the URL is not (or no longer) the account's topic's;
    raises :class:`kit.aws_sns.Unreachable` when SNS could not be asked (retried)."""
    settings = get_settings()
    config = await relay_config(tenant_pk, "ses", settings)
    problem = aws_sns.subscribe_url_problem(url, config.get("sns_topic_arn"))
    if problem:
        log.warning("sns subscription of account %s not confirmed: %s", tenant_pk, problem)
        return "refused"
    # A tenant's sns_base_url is a provider URL like its base_url: the same policy (loopback only
    # with the development switch, as every tenant URL).
    policy = egress.PROVIDERS.with_loopback(settings.webhooks_allow_loopback)
    await aws_sns.fetch(aws_sns.confirmation_target(url, config.get("sns_base_url")), policy)
    return "confirmed"


@dramatiq.actor(actor_name=Actor.SNS_SUBSCRIPTION_CONFIRM.name, queue_name=Actor.SNS_SUBSCRIPTION_CONFIRM.queue.value,
                max_retries=20, min_backoff=5_000, max_backoff=3_600_000, time_limit=30_000,
                max_age=86_400_000)
async def confirm_subscription(tenant_pk: int, url: str) -> None:
    log.info("sns subscription of account %s: %s", tenant_pk, await confirm(tenant_pk, url))
