"""Auto-stop of A/B experiments: every RUN_SECONDS, enqueue ``pages_experiments.evaluate`` (through
pages outbox rows) for each running experiment whose auto-stop is on and that has no job pending
in the outbox. The actor evaluates the rule and concludes (tasks/pages/experiments.py)."""

from __future__ import annotations

import logging

from tortoise import connections

from kit.actors import Actor
from models.outbox import insert_sql
from models.pages.page import ExperimentStatus
from schedules.jobs import job

log = logging.getLogger("herald.pages.experiments")

SYSTEM = Actor.PAGES_EXPERIMENT_EVALUATE.system
RUN_SECONDS = 60
LIMIT = 1000

_DUE = f"""
WITH due AS (
  SELECT e.id FROM page_experiments e
  WHERE e.status = $1 AND (e.auto_stop ->> 'Enabled')::boolean IS TRUE
  AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.actor = $2 AND o.args = jsonb_build_array(e.id)
                  AND o.published_at IS NULL)
  ORDER BY e.id LIMIT $3
)
{insert_sql(Actor.PAGES_EXPERIMENT_EVALUATE, "due")}
RETURNING id
"""


async def enqueue_due() -> int:
    rows = await connections.get(SYSTEM).execute_query_dict(
        _DUE, [ExperimentStatus.RUNNING.value, Actor.PAGES_EXPERIMENT_EVALUATE.name, LIMIT])
    return len(rows)


@job("pages_experiments.evaluate_due", every_seconds=RUN_SECONDS)
async def evaluate_experiments(runtime) -> None:
    count = await enqueue_due()
    if count:
        log.info("enqueued %d experiment evaluation(s)", count)
        runtime.wakeup(SYSTEM)
