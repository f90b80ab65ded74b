"""Auto-stop of A/B experiments: ``pages_experiments.evaluate`` (queue ``maintenance``) concludes a
running experiment with its winner published when its rule is met (models/pages/page.py:
``stop_rule_met``, ``evaluate_auto_stop``). Enqueued every minute by schedules/pages/experiments.py;
a repeat is harmless (a concluded experiment is left alone).
"""

from __future__ import annotations

import logging

import dramatiq
from tortoise.transactions import in_transaction

from kit.actors import Actor
from models.pages.page import evaluate_auto_stop

log = logging.getLogger("herald.pages.experiments")

SYSTEM = Actor.PAGES_EXPERIMENT_EVALUATE.system


async def evaluate(experiment_pk: int) -> bool:
    async with in_transaction(SYSTEM) as conn:
        concluded = await evaluate_auto_stop(conn, experiment_pk)
    if concluded:
        log.info("experiment %s concluded by its auto-stop rule", experiment_pk)
    return concluded


@dramatiq.actor(actor_name=Actor.PAGES_EXPERIMENT_EVALUATE.name,
                queue_name=Actor.PAGES_EXPERIMENT_EVALUATE.queue.value, max_retries=3, min_backoff=5_000,
                max_backoff=60_000, time_limit=60_000, max_age=600_000)
async def evaluate_experiment(experiment_pk: int) -> None:
    await evaluate(experiment_pk)
