"""Re-verifying custom domains of the pages system: ``pages_domains.verify`` (queue ``dns``).

Enqueued through the pages outbox by schedules/pages/domains.py. One attempt: the TXT record
looked up (kit/dns.py), the outcome judged and recorded by models/pages/site.py, the same rules
as ``POST /v1/dominios/{id}/verificar``. A duplicate from the broker records one more attempt.
"""

from __future__ import annotations

import logging

import dramatiq
from tortoise import connections
from tortoise.transactions import in_transaction

from kit.actors import Actor
from kit.dns import Unreachable, lookup, resolver_for
from kit.settings import get_settings
from models.pages import CustomDomain
from models.pages.site import CheckOutcome, outcome_of, record_check, record_name

log = logging.getLogger("herald.pages.domains")

SYSTEM = Actor.PAGES_DOMAIN_VERIFY.system


async def verify(domain_pk: int, nameservers: tuple[str, ...] | None = None) -> str | None:
    """One verification attempt of the domain, recorded; its outcome (None: deleted meanwhile).
    ``nameservers``: DNS_NAMESERVERS unless given."""
    domain = await CustomDomain.get_or_none(id=domain_pk, using_db=connections.get(SYSTEM))
    if domain is None:
        return None
    try:
        servers = get_settings().dns_nameservers if nameservers is None else nameservers
        values = await lookup(resolver_for(servers), record_name(domain), "TXT")
        outcome, detail = outcome_of(domain, values)
    except Unreachable as error:
        outcome, detail = CheckOutcome.UNREACHABLE, str(error)
    async with in_transaction(SYSTEM) as conn:
        recorded = await record_check(conn, domain_pk, outcome, detail)
    return outcome.value if recorded is not None else None


@dramatiq.actor(actor_name=Actor.PAGES_DOMAIN_VERIFY.name, queue_name=Actor.PAGES_DOMAIN_VERIFY.queue.value,
                max_retries=3, min_backoff=5_000, max_backoff=60_000, time_limit=60_000, max_age=3_600_000)
async def verify_domain(domain_pk: int) -> None:
    outcome = await verify(domain_pk)
    log.debug("custom domain %s: %s", domain_pk, outcome)
