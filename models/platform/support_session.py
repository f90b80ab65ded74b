"""Support sessions: an operator reading an account as one of its users (read-only; issue 16
opens them). The account's members see the trail at GET /api/tenants/{id}/impersonations."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id


def new_support_session_id() -> str:
    return public_id("sup")


class SupportSession(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_support_session_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="support_sessions", on_delete=fields.CASCADE)
    operator_id = fields.CharField(max_length=40)  # the staff user (usr_...)
    operator_email = fields.CharField(max_length=320)
    reason = fields.CharField(max_length=500)
    started_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    ended_at = fields.DatetimeField(null=True)

    class Meta:
        table = "support_sessions"
        app = "platform"
        indexes = (("tenant_id", "started_at"),)


class SupportRead(Model):
    """One read an operator made inside a support session: the account's trail of what was seen.

    Recorded before the read is answered; ``status`` is the answer's, filled in after it."""

    id = fields.BigIntField(primary_key=True)
    support: fields.ForeignKeyRelation = fields.ForeignKeyField(
        "platform.SupportSession", related_name="reads", on_delete=fields.CASCADE)
    # Where the read was made: the platform's dashboard, or another system (crm, pages, runtime, mail)
    # whose gate recorded it through POST /internal/v1/support-sessions/{id}/reads.
    system = fields.CharField(max_length=16, default="platform")
    method = fields.CharField(max_length=10)
    path = fields.CharField(max_length=500)  # without the query string (it may hold search terms)
    status = fields.IntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "support_reads"
        app = "platform"
        indexes = (("support_id", "id"),)
