"""Erasures of anonymized contacts' copies (models/crm/retention.py): every RUN_SECONDS, hand
``crm_erasure.run`` to the workers again for each erasure row still there REENQUEUE_AFTER after it
was last handed over (its job was lost, or its retries ran out while the runtime was away). A row
is deleted once the erasure is done, so what is left is what is still owed.

The sweep (schedules/sweep.py) is ``FOR UPDATE SKIP LOCKED`` in one CRM statement that also writes
the outbox rows and stamps ``enqueued_at``. The actor does the work
(tasks/crm/erasure.py).
"""

from __future__ import annotations

from datetime import timedelta

from kit.actors import Actor
from models.lease import Leased
from schedules.sweep import Sweep

RUN_SECONDS = 300
REENQUEUE_AFTER = timedelta(minutes=30)
LIMIT = 1000


# The lease pipeline's sweep (schedules/sweep.py) without due time or lease, over
# every owed erasure.
ERASURES = Sweep(
    "crm_erasure.enqueue", Leased(table="contact_erasures", waiting="true", due=None, lease=None),
    Actor.CRM_ERASURE_RUN, REENQUEUE_AFTER, RUN_SECONDS, limit=LIMIT).register()
enqueue_due = ERASURES.run
