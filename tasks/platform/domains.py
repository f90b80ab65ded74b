"""Verifying sender domains: ``domains.verify`` on queue ``dns`` (kit/dns.py does the work;
``herald domain verify`` calls the same function inline).

Enqueued through outbox rows by the re-check job (schedules/platform/domains.py). A duplicate from the
broker only records one more attempt.
"""

from __future__ import annotations

import logging

import dramatiq

from kit.actors import Actor
from kit.dns import lookup_with
from models.platform.domain import check_domain
from kit.settings import get_settings
from models.platform.domain import SenderDomain

log = logging.getLogger("herald.dns")


async def verify(domain_pk: int) -> str | None:
    domain = await SenderDomain.get_or_none(id=domain_pk)
    if domain is None:
        return None  # deleted since it was enqueued
    settings = get_settings()
    check = await check_domain(domain, lookup=lookup_with(settings.dns_nameservers), mail_domain=settings.mail_domain)
    if check.detail.get("LostVerification"):
        log.warning("sender domain %s (tenant %s) lost its verification", domain.name, domain.tenant_id)
    return check.outcome


@dramatiq.actor(actor_name=Actor.DOMAIN_VERIFY.name, queue_name=Actor.DOMAIN_VERIFY.queue.value, max_retries=3,
                min_backoff=5_000, max_backoff=60_000, time_limit=60_000, max_age=3_600_000)
async def verify_domain(domain_pk: int) -> None:
    outcome = await verify(domain_pk)
    log.debug("domain %s: %s", domain_pk, outcome)
