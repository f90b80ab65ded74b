"""Suppressions: addresses an account does not send to, each with its reason.

Reasons (:class:`Reason`): ``crm_opt_out`` (the CRM's consent, written and lifted only by the CRM
through its internal route), ``bounce`` (a hard bounce: an SMTP 5xx at hand-off or a DSN that
says so) and ``complaint`` (an ARF report: the recipient marked the message as spam); the last two
name the message that caused them and are the account's to lift. One row per (account, channel,
address, reason): a bounce recorded while the CRM holds an opt-out stays when the CRM lifts its own.
Addresses are stored lower-cased; the accept statement (app/platform/message/statement.py) and
delivery's re-check (models/platform/message.py, ``presend``) compare the recipient lower-cased.
"""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from kit.ids import public_id


class Reason(StrEnum):
    CRM_OPT_OUT = "crm_opt_out"  # lifted through the CRM only; every other reason is the account's to lift
    BOUNCE = "bounce"
    COMPLAINT = "complaint"


def new_suppression_id() -> str:
    return public_id("sup")


# The database's own default for rows written in SQL (the CRM's route, delivery): kit.ids's shape.
PUBLIC_ID_SQL = "'sup_' || substr(md5(gen_random_uuid()::text), 1, 24)"


class Suppression(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_suppression_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="suppressions", on_delete=fields.CASCADE)
    channel = fields.CharField(max_length=10)
    address = fields.CharField(max_length=512)
    reason = fields.CharField(max_length=64)
    # The message that caused it (a bounce, a complaint); None for the CRM's.
    message = fields.ForeignKeyField("platform.Message", related_name="suppressions", null=True,
                                     on_delete=fields.SET_NULL)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "suppressions"
        app = "platform"
        unique_together = (("tenant", "channel", "address", "reason"),)
        # Listings are per account, newest first.
        indexes = (("tenant_id", "id"),)


SUPPRESS_SQL = """
INSERT INTO suppressions (public_id, tenant_id, channel, address, reason, message_id, created_at)
SELECT """ + PUBLIC_ID_SQL + """, m.tenant_id, m.channel, lower(m.recipient), $2, m.id, now()
FROM messages m WHERE m.id = $1
ON CONFLICT (tenant_id, channel, address, reason) DO NOTHING
"""


async def suppress_recipient(conn: BaseDBAsyncClient, message_pk: int, reason: Reason) -> None:
    """Suppress the recipient of message ``message_pk`` for its account, naming the message
    (idempotent: an address already suppressed for that reason keeps its first cause)."""
    await conn.execute_query(SUPPRESS_SQL, [message_pk, reason.value])
