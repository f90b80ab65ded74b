"""Form submissions and leads the runtime took, kept until (and after) the CRM made them contacts.

One row per accepted submission (``source`` ``form``: a page's form, the cross-origin form route or
``POST /v1/forms/{id}/submissions``; ``lead``: ``POST /v1/leads``). What a person typed is personal
data: it is sealed at rest (kit/sealing.py, system ``runtime``, purpose ``lead-data``) in ``data``;
the columns in the clear are what the runtime counts by (account, form, page, A/B variant, time).
The row and its outbox job (``runtime_leads.forward``) are written in one transaction; the actor
posts it to the CRM (idempotent there on ``public_id``) and records the contact it became.
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model

from kit.sealing import Sealer
from kit.ids import public_id

SEALER = Sealer("runtime")
PURPOSE = "lead-data"
PREFIX = "sub"


def new_submission_id() -> str:
    return public_id(PREFIX)


class Submission(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    source = fields.CharField(max_length=8)  # form | lead
    form_id = fields.CharField(max_length=40, default="")
    page_id = fields.CharField(max_length=40, default="")
    page = fields.CharField(max_length=512, default="")  # the page's path, as the pixel names it
    variant = fields.CharField(max_length=40, default="")
    data = fields.TextField()  # sealed JSON: email, phone, name, external_id, attributes, consent
    occurred_at = fields.DatetimeField()
    created_at = fields.DatetimeField(auto_now_add=True)
    forwarded_at = fields.DatetimeField(null=True)
    contact_id = fields.CharField(max_length=64, null=True)
    attempts = fields.IntField(default=0)
    last_error = fields.CharField(max_length=200, null=True)
    # Set when the CRM's retention erased what the person typed (app/runtime/retention/): ``data``
    # then holds no e-mail, phone, name, external id or attribute.
    anonymized_at = fields.DatetimeField(null=True)
    # The form's notice to its NotifyEmail (tasks/runtime/notices.py): null until the job decides;
    # ``sending`` (counted against the form's daily limit), ``sent``, ``limited`` (past the limit:
    # not sent, counted), ``not_member`` (no longer a verified address of the account's people),
    # ``unconfigured`` (no system mail key), ``refused`` (the platform refused the e-mail).
    notice = fields.CharField(max_length=16, null=True)
    noticed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "form_submissions"
        app = "runtime"
        indexes = (("tenant", "created_at"), ("tenant", "page", "created_at"))

    def values(self) -> dict[str, Any]:
        return SEALER.unseal_json(PURPOSE, self.data)


def seal(values: dict[str, Any]) -> str:
    return SEALER.seal_json(PURPOSE, values)


def unseal(data: str) -> dict[str, Any]:
    return SEALER.unseal_json(PURPOSE, data)
