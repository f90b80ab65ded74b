"""Platform staff (issue 16): the allowlist behind /api/admin, and the marker that puts an
operator's identity session into a read-only support session."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


# One allowlisted person: by identity user id, or by e-mail address until they first sign in (an
# address entry counts only for a session whose address is verified; the user id is then recorded,
# so a later change of address keeps the entry).
class StaffMember(Model):
    id = fields.BigIntField(primary_key=True)
    user_id = fields.CharField(max_length=40, null=True, unique=True)  # usr_...
    email = fields.CharField(max_length=320, null=True, unique=True)  # lowercased
    added_by = fields.CharField(max_length=200, default="")  # usr_... or "cli"
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "staff_members"
        app = "platform"


# The identity session (``ses_...``) of an operator inside a support session: while the row exists
# (and its support session is live), that session reads the account read-only
# (app/platform/support/service.py).
class SupportMarker(Model):
    session_id = fields.CharField(max_length=40, primary_key=True)
    support: fields.ForeignKeyRelation = fields.ForeignKeyField(
        "platform.SupportSession", related_name="markers", on_delete=fields.CASCADE)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "support_markers"
        app = "platform"
