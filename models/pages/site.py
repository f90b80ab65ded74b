"""Everything of an account's site that is not a page: brand, forms, redirects, media, custom domains."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from models.pages.base import (new_form_id, new_redirect_id, new_media_id, new_domain_id,
                               tenant_field)


class Brand(Model):
    """The account's brand: four elements, each absent (null) until set."""

    id = fields.BigIntField(primary_key=True)
    tenant_id = fields.CharField(max_length=40, unique=True)
    logo_url = fields.CharField(max_length=2048, null=True)
    primary_color = fields.CharField(max_length=7, null=True)
    secondary_color = fields.CharField(max_length=7, null=True)
    font = fields.CharField(max_length=100, null=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "brands"


class Form(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_form_id)
    tenant_id = tenant_field()
    name = fields.CharField(max_length=200)
    fields_spec: list = fields.JSONField(default=list, source_field="fields")
    consent: dict | None = fields.JSONField(null=True)
    destination: dict = fields.JSONField(default=dict)
    success_message = fields.CharField(max_length=500, default="")
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "forms"


class Redirect(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_redirect_id)
    tenant_id = tenant_field()
    domain = fields.CharField(max_length=253)
    slug = fields.CharField(max_length=100)
    target = fields.CharField(max_length=2048)
    status_code = fields.SmallIntField(default=302)
    clicks = fields.BigIntField(default=0)
    last_click_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "redirects"
        unique_together = (("tenant_id", "domain", "slug"),)


class Media(Model):
    """An image: the file is ``<media dir>/<sha256>``, written before this row; one row per
    (account, content)."""

    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_media_id)
    tenant_id = tenant_field()
    sha256 = fields.CharField(max_length=64)
    content_type = fields.CharField(max_length=40)
    size = fields.IntField()
    filename = fields.CharField(max_length=255, default="")
    source_url = fields.CharField(max_length=2048, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "media"
        unique_together = (("tenant_id", "sha256"),)


class DomainStatus(StrEnum):
    UNVERIFIED = "nao_verificado"
    VERIFIED = "verificado"


class CheckOutcome(StrEnum):
    VERIFIED = "verified"
    ABSENT = "absent"
    UNREACHABLE = "unreachable"


class CustomDomain(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_domain_id)
    tenant_id = tenant_field()
    name = fields.CharField(max_length=253, db_index=True)
    token = fields.CharField(max_length=64)
    status = fields.CharField(max_length=16, default=DomainStatus.UNVERIFIED.value)
    verified_at = fields.DatetimeField(null=True)
    checked_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "custom_domains"
        unique_together = (("tenant_id", "name"),)


class DomainCheck(Model):
    """One verification attempt and what DNS said, kept whatever the outcome."""

    id = fields.BigIntField(primary_key=True)
    domain = fields.ForeignKeyField("pages.CustomDomain", related_name="checks", on_delete=fields.CASCADE)
    outcome = fields.CharField(max_length=16)
    detail = fields.CharField(max_length=500, default="")
    checked_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "custom_domain_checks"


# --- custom domain verification: what counts as found, and recording an attempt ----------------

RECORD_PREFIX = "_herald-verify"
VALUE_PREFIX = "herald-verify="


def record_name(domain: CustomDomain) -> str:
    """Where the owner publishes the TXT record: ``_herald-verify.<host>``."""
    return f"{RECORD_PREFIX}.{domain.name}"


def record_value(domain: CustomDomain) -> str:
    return f"{VALUE_PREFIX}{domain.token}"


def outcome_of(domain: CustomDomain, values: list[str]) -> tuple[CheckOutcome, str]:
    """What the TXT values found at :func:`record_name` mean."""
    if record_value(domain) in (value.strip() for value in values):
        return CheckOutcome.VERIFIED, "record found"
    return CheckOutcome.ABSENT, "not published" if not values else "published with another value"


async def record_check(conn, domain_pk: int, outcome: CheckOutcome, detail: str) -> CustomDomain | None:
    """Records one attempt whatever its outcome; a found record verifies the domain. A failed
    re-check never unverifies one (deleting it is the only way to withdraw TLS authorization).
    None when the domain was deleted meanwhile."""
    from datetime import datetime, timezone

    domain = await CustomDomain.filter(id=domain_pk).using_db(conn).select_for_update().first()
    if domain is None:
        return None
    now = datetime.now(timezone.utc)
    await DomainCheck.create(using_db=conn, domain_id=domain.id, outcome=outcome.value, detail=detail[:500])
    domain.checked_at = now
    if outcome is CheckOutcome.VERIFIED and domain.status != DomainStatus.VERIFIED.value:
        domain.status, domain.verified_at = DomainStatus.VERIFIED.value, now
    await domain.save(using_db=conn)
    return domain
