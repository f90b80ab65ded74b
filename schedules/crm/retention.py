"""Retention in the CRM: every RUN_SECONDS, hand ``crm_retention.anonymize`` to the workers for
each policy that is on and was not handed over within REENQUEUE_AFTER (contacts keep aging past
the policy; a lost job is taken back). With RUN_SECONDS 10 minutes and REENQUEUE_AFTER 30, a
contact that ages past its policy is anonymized within about 40 minutes, inside the contract's
hour (setting a policy hands the job over at once, app/crm/retention).

The sweep (schedules/sweep.py) is ``FOR UPDATE SKIP LOCKED`` in one CRM statement that also writes
the outbox rows and stamps ``enqueued_at``: two schedulers never hand a policy over twice, and
nothing crosses databases. The actor does the work (tasks/crm/retention.py).
"""

from __future__ import annotations

from datetime import timedelta

from kit.actors import Actor
from models.lease import Leased
from schedules.sweep import Sweep

RUN_SECONDS = 600
REENQUEUE_AFTER = timedelta(minutes=30)
LIMIT = 1000


# The lease pipeline's sweep (schedules/sweep.py) without due time or lease, over
# every policy that is on.
POLICIES = Sweep(
    "crm_retention.enqueue", Leased(table="retention_policies", waiting="days IS NOT NULL", due=None, lease=None),
    Actor.CRM_RETENTION_ANONYMIZE, REENQUEUE_AFTER, RUN_SECONDS, limit=LIMIT).register()
enqueue_due = POLICIES.run
