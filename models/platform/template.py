"""Message templates of an account: one per (account, slug), for any channel.

A template holds a subject (e-mail, push title), a text body and, for e-mail, an HTML body, with
variables. E-mail, SMS and push templates are Jinja2 templates rendered in a sandbox
(app/platform/template/render.py); WhatsApp templates keep the provider's positional
``{{1}}`` placeholders (Meta renders them; Herald fills them the same way) and carry the
provider's approval state: only an ``approved`` one may be sent. Other channels' templates are
``active`` from the start. WhatsApp templates lived in ``whatsapp_templates`` until migration
0010 folded them in here.
"""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id

MAX_TEMPLATES_PER_ACCOUNT = 100


class TemplateState(StrEnum):
    ACTIVE = "active"  # e-mail, SMS, push: usable at once
    PENDING = "pending"  # WhatsApp: submitted to the provider, not yet approved
    APPROVED = "approved"
    REJECTED = "rejected"


def new_template_id() -> str:
    return public_id("tpl")


class Template(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_template_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="templates", on_delete=fields.CASCADE)
    slug = fields.CharField(max_length=100)
    channel = fields.CharField(max_length=10)
    name = fields.CharField(max_length=200, default="")
    subject = fields.TextField(null=True)
    text = fields.TextField(null=True)
    html = fields.TextField(null=True)
    language = fields.CharField(max_length=10, default="en")
    status = fields.CharField(max_length=10, default=TemplateState.ACTIVE.value)
    # WhatsApp approval (migration 0012; app/platform/template/approval.py): the provider's id of the
    # template, the last submission and status read, and why it is rejected or still pending.
    provider_template_id = fields.CharField(max_length=64, null=True)
    submitted_at = fields.DatetimeField(null=True)
    checked_at = fields.DatetimeField(null=True)
    status_reason = fields.TextField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "templates"
        app = "platform"
        unique_together = (("tenant", "slug"),)

    @property
    def sendable(self) -> bool:
        return self.status in (TemplateState.ACTIVE.value, TemplateState.APPROVED.value)
