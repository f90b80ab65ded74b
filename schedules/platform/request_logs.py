"""Request-log partitions: the months ahead exist before the first request of the month arrives.

``request_logs`` is partitioned by month (models/platform/request_log.py). This job creates
the current month's partition and the next MONTHS_AHEAD ones when missing; the writer of
the HTTP processes creates a missing month on demand as well, so a stopped scheduler never
loses a log. Nothing is ever dropped: logs are kept indefinitely.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone

from tortoise import connections

from models.platform.request_log import ensure_partitions, months_from
from schedules.jobs import job

log = logging.getLogger("herald.scheduler.request_logs")


@job("request_logs.partitions", every_seconds=3600)
async def create_partitions(runtime=None) -> list[str]:
    created = await ensure_partitions(connections.get("platform"), months_from(datetime.now(timezone.utc)))
    if created:
        log.info("request-log partitions created: %s", ", ".join(created))
    return created
