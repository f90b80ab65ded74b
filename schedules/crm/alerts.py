"""CRM alerts: every RUN_SECONDS, hand ``crm_alerts.evaluate`` to the workers for each enabled alert
not handed over within the last RUN_SECONDS (schedules/sweep.py: claimed FOR UPDATE SKIP LOCKED with
its outbox rows in one CRM statement: two schedulers never hand an alert over twice). The actor does
the work."""

from __future__ import annotations

from datetime import timedelta

from kit.actors import Actor
from models.lease import Leased
from schedules.sweep import Sweep

RUN_SECONDS = 60
LIMIT = 5000
REENQUEUE_AFTER = timedelta(seconds=RUN_SECONDS - 5)


# The lease pipeline's sweep (schedules/sweep.py) without due time or lease, over
# every enabled alert.
ALERTS = Sweep(
    "crm_alerts.enqueue", Leased(table="crm_alerts", waiting="enabled", due=None, lease=None),
    Actor.CRM_ALERT_EVALUATE, REENQUEUE_AFTER, RUN_SECONDS, limit=LIMIT).register()
enqueue_due = ALERTS.run
