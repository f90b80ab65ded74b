"""The security trail of a person: sign-ins and their failures, factor, address and session
changes, recovery codes generated, re-authentications (``GET /v1/auth/events``, the dashboard's
``/api/me/eventos``). Rows are written in the transaction of the change they record; the trail
is read newest first by id (keyset paging)."""

from __future__ import annotations

import secrets
from enum import StrEnum

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model


class EventKind(StrEnum):
    LOGIN = "login"
    LOGIN_FAILED = "login_failed"
    TWO_FACTOR_FAILED = "two_factor_failed"
    LOGOUT = "logout"
    SESSION_REVOKED = "session_revoked"
    PASSWORD_RESET = "password_reset"  # every session revoked with it
    TOTP_ENABLED = "totp_enabled"
    EMAIL_FACTOR_ENABLED = "email_factor_enabled"
    TWO_FACTOR_DISABLED = "two_factor_disabled"
    RECOVERY_CODES_GENERATED = "recovery_codes_generated"
    EMAIL_ADDED = "email_added"
    EMAIL_VERIFIED = "email_verified"
    EMAIL_REMOVED = "email_removed"
    EMAIL_PRIMARY_CHANGED = "email_primary_changed"
    EMAIL_CHANGED = "email_changed"
    PASSKEY_ADDED = "passkey_added"
    PASSKEY_REMOVED = "passkey_removed"
    REAUTHENTICATED = "reauthenticated"


class SecurityEvent(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)  # evt_<hex>
    user = fields.ForeignKeyField("identity.User", related_name="security_events", on_delete=fields.CASCADE)
    kind = fields.CharEnumField(EventKind, max_length=40)
    ip = fields.CharField(max_length=64, default="")
    user_agent = fields.CharField(max_length=512, default="")
    details = fields.JSONField(default=dict)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "security_events"
        indexes = (("user_id", "id"),)


async def record(conn: BaseDBAsyncClient, user_id: int, kind: EventKind, *, ip: str = "", user_agent: str = "",
                 **details: object) -> SecurityEvent:
    """One event of the trail, in the caller's transaction (it exists only if the change does)."""
    return await SecurityEvent.create(public_id=f"evt_{secrets.token_hex(12)}", user_id=user_id, kind=kind,
                                      ip=ip[:64], user_agent=user_agent[:512], details=details, using_db=conn)
