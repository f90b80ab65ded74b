"""CRM deliveries: every RUN_SECONDS, hand the due ones to the drain (tasks/crm/deliveries.py).

The sweep of the one lease pipeline (schedules/sweep.py) over ``crm_deliveries``
(models/crm/delivery.py: LEASED). Due: ``pending`` or ``retrying`` with ``next_attempt_at`` reached
and not handed over for this attempt (``enqueued_at`` older than ``next_attempt_at``) or handed over
more than REENQUEUE_AFTER ago (the broker lost it); or ``delivering`` whose lease ran out (its
worker died). The mark and the outbox rows are one CRM statement; the actor's claim makes a
duplicate harmless.
"""

from __future__ import annotations

from datetime import timedelta

from kit.actors import Actor
from models.crm.delivery import LEASED
from schedules.sweep import Sweep

RUN_SECONDS = 5
REENQUEUE_AFTER = timedelta(minutes=5)

DELIVERIES = Sweep("crm_deliveries.enqueue", LEASED, Actor.CRM_DELIVERY_SEND, REENQUEUE_AFTER, RUN_SECONDS,
                   order="next_attempt_at").register()
enqueue_due = DELIVERIES.run
