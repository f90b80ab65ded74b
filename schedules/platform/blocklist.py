"""Blocklist suggestions from hard bounces and complaints across accounts (docs/operator.md).

Every hour: a live address (or phone number) that bounced hard or drew a complaint in at least
SUGGEST_MIN_ACCOUNTS accounts over the last SUGGEST_WINDOW_DAYS days, and a domain with at least
SUGGEST_DOMAIN_ADDRESSES such addresses across as many accounts, become undecided suggestions for
staff (GET /api/admin/blacklist/suggestions); a suggestion already decided stays decided, and a
value already blocked is not suggested. One statement (models/platform/blocklist.py).
"""

from __future__ import annotations

import logging

from tortoise import connections

from models.platform.blocklist import suggest
from schedules.jobs import job

log = logging.getLogger("herald.scheduler.blocklist")


@job("blocklist.suggestions", every_seconds=3600)
async def suggest_blocks(runtime=None) -> list[tuple[str, str]]:
    made = await suggest(connections.get("platform"))
    if made:
        log.info("blocklist suggestions made or refreshed: %d", len(made))
    return made
