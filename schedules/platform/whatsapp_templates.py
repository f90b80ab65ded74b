"""WhatsApp template approval, the periodic half (tasks/platform/whatsapp_templates.py is the other).

Every RUN_SECONDS: each pending WhatsApp template that was submitted (it has the provider's id)
and was not looked at for POLL_SECONDS gets a ``whatsapp_templates.check``; each pending one that
could not be submitted (no provider id) and was not looked at for RESUBMIT_SECONDS gets a
``whatsapp_templates.submit`` again (the upsert enqueued the first one). Rows are claimed with
``FOR UPDATE SKIP LOCKED`` and stamped ``checked_at`` in the transaction that enqueues their jobs,
so two schedulers never enqueue one template twice in a period. At most BATCH a run.
"""

from __future__ import annotations

from tortoise.transactions import in_transaction

from kit.actors import Actor
from models.outbox import enqueue_many
from schedules.jobs import job

RUN_SECONDS = 60
POLL_SECONDS = 60
RESUBMIT_SECONDS = 300
BATCH = 500

_DUE = """
SELECT id, provider_template_id IS NOT NULL AS submitted FROM templates
WHERE channel = 'whatsapp' AND status = 'pending'
  AND ((provider_template_id IS NOT NULL AND COALESCE(checked_at, submitted_at, updated_at)
        <= now() - make_interval(secs => $1))
    OR (provider_template_id IS NULL AND COALESCE(checked_at, updated_at) <= now() - make_interval(secs => $2)))
ORDER BY checked_at NULLS FIRST, id LIMIT $3
FOR UPDATE SKIP LOCKED
"""


@job("whatsapp_templates.sync", every_seconds=RUN_SECONDS)
async def sync_templates(runtime=None, *, poll_seconds: float = POLL_SECONDS,
                         resubmit_seconds: float = RESUBMIT_SECONDS) -> dict[str, list[int]]:
    """Enqueue what is due; returns the template ids enqueued, by job."""
    async with in_transaction("platform") as conn:
        rows = await conn.execute_query_dict(_DUE, [poll_seconds, resubmit_seconds, BATCH])
        checks = [row["id"] for row in rows if row["submitted"]]
        submits = [row["id"] for row in rows if not row["submitted"]]
        await enqueue_many(conn, Actor.WHATSAPP_TEMPLATE_CHECK, checks)
        await enqueue_many(conn, Actor.WHATSAPP_TEMPLATE_SUBMIT, submits)
        if rows:
            await conn.execute_query("UPDATE templates SET checked_at = now() WHERE id = ANY($1::bigint[])",
                                     [[row["id"] for row in rows]])
    return {"check": checks, "submit": submits}
