"""The activity record of a contact export, written and committed before the first byte leaves."""

from __future__ import annotations

import logging

from tortoise.transactions import in_transaction

from app.crm.errors import ExportUnavailable
from kit.systems import CRM
from models.crm import ActivityKind, ActivityRecord

log = logging.getLogger("herald.crm")
LOCK_TIMEOUT = "2s"


async def record_export(tenant: str, user_id: str | None, what: dict) -> ActivityRecord:
    """Commit the record in a transaction of its own; any failure is 503 and nothing is exported."""
    try:
        async with in_transaction(CRM.name) as conn:
            await conn.execute_query(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
            return await ActivityRecord.create(tenant=tenant, user_id=user_id, kind=ActivityKind.CONTACTS_EXPORTED,
                                               details=what, using_db=conn)
    except Exception as exc:  # whatever stopped the record (lock timeout, database down): nothing is exported
        log.error("contact export refused: its activity record could not be written (%r)", exc)
        raise ExportUnavailable() from None
