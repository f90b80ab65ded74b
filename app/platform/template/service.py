"""Templates: the upsert (by account and slug, at most MAX_TEMPLATES_PER_ACCOUNT per account),
the listing, and turning a template and variables into the content of a send.

What each channel needs (422 naming the part otherwise):

==========  ===============================================================
email       ``Subject`` and ``Text`` and/or ``Html``
sms         ``Text`` (the body; at most 1600 characters once rendered)
push        ``Subject`` (the title) and ``Text`` (the body), each at most 4096 characters once rendered
whatsapp    ``Text``, with the provider's ``{{1}}`` placeholders; starts ``pending``
==========  ===============================================================

A WhatsApp template is sendable only once the provider approved it; changing its text or language
sends it back to ``pending``. Whenever a WhatsApp template becomes pending (made, changed, or
turned into a WhatsApp one) the upsert enqueues ``whatsapp_templates.submit`` in its transaction:
the provider reviews it and tasks/platform/whatsapp_templates.py records the outcome (``approved`` or
``rejected`` with ``status_reason``; schedules/platform/whatsapp_templates.py polls the review). Every query
filters on the account: another account's slug is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import KeysetPage, Page
from app.platform.errors import ResourceLimit
from app.platform.template import render
from kit.actors import Actor
from kit.sandbox import OUTPUT_LIMITS
from models.outbox import enqueue
from models.platform.template import MAX_TEMPLATES_PER_ACCOUNT, Template, TemplateState, new_template_id

if TYPE_CHECKING:  # the schema module imports Sanic (app.http.bodies); a service must not
    from app.platform.template.schemas import TemplateUpsert

SMS_MAX = OUTPUT_LIMITS["sms"]
NEEDS = {"email": ("Subject",), "sms": ("Text",), "push": ("Subject", "Text"), "whatsapp": ("Text",)}
PARTS = ("Subject", "Text", "Html")

_UPSERT = """
INSERT INTO templates (public_id, tenant_id, slug, channel, name, subject, text, html, language, status,
                       created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), now())
ON CONFLICT (tenant_id, slug) DO UPDATE SET channel = EXCLUDED.channel, name = EXCLUDED.name,
    subject = EXCLUDED.subject, text = EXCLUDED.text, html = EXCLUDED.html, language = EXCLUDED.language,
    status = CASE WHEN EXCLUDED.channel <> 'whatsapp' THEN 'active'
                  WHEN templates.channel = 'whatsapp' AND templates.text IS NOT DISTINCT FROM EXCLUDED.text
                       AND templates.language = EXCLUDED.language THEN templates.status
                  ELSE 'pending' END,
    updated_at = now()
RETURNING id
"""


@dataclass(frozen=True)
class Rendered:
    template: Template
    subject: str | None
    text: str | None
    html: str | None


def parts_of(body: TemplateUpsert) -> dict[str, str | None]:
    return {"Subject": body.subject, "Text": body.text, "Html": body.html}


def _check_parts(body: TemplateUpsert) -> None:
    parts = parts_of(body)
    missing = [part for part in NEEDS[body.channel] if not parts[part]]
    if body.channel == "email" and not (body.text or body.html):
        missing.append("Text")
    if missing:
        raise errors.Unprocessable(f"A {body.channel} template needs {' and '.join(missing)}.",
                                   details={part: "required" for part in missing})
    if body.html and body.channel != "email":
        raise errors.Unprocessable("Only e-mail templates have an Html part.", details={"Html": "e-mail only"})
    if body.channel in ("sms", "whatsapp") and body.subject:
        raise errors.Unprocessable(f"A {body.channel} template has no Subject.", details={"Subject": "not used"})


async def vet(body: TemplateUpsert) -> None:
    """The checks of a template that need no database, the trial render among them (up to the render
    deadline): the handler runs them before it opens the upsert's transaction."""
    _check_parts(body)
    await render.vet(body.channel, parts_of(body))


async def upsert(conn: BaseDBAsyncClient, tenant_pk: int, body: TemplateUpsert) -> Template:
    """Create or replace the account's template ``body.slug``; in the caller's transaction
    (:func:`vet` first: the upsert repeats only the checks of the parts, not the parse)."""
    _check_parts(body)
    # The account row is the lock that keeps two concurrent creations from passing the cap together.
    await conn.execute_query("SELECT id FROM tenants WHERE id = $1 FOR UPDATE", [tenant_pk])
    before = await Template.get_or_none(tenant_id=tenant_pk, slug=body.slug, using_db=conn)
    if before is None:
        count = await Template.filter(tenant_id=tenant_pk).using_db(conn).count()
        if count >= MAX_TEMPLATES_PER_ACCOUNT:
            raise ResourceLimit("templates", MAX_TEMPLATES_PER_ACCOUNT)
    status = TemplateState.PENDING if body.channel == "whatsapp" else TemplateState.ACTIVE
    rows = await conn.execute_query_dict(_UPSERT, [
        new_template_id(), tenant_pk, body.slug, body.channel, body.name or "", body.subject, body.text, body.html,
        body.language or "en", status.value])
    if body.channel == "whatsapp" and (before is None or before.channel != "whatsapp" or before.text != body.text
                                       or before.language != (body.language or "en")):
        # To the provider's review (tasks/platform/whatsapp_templates.py), with this transaction's commit.
        await conn.execute_query("UPDATE templates SET submitted_at = NULL, checked_at = NULL, status_reason = NULL "
                                 "WHERE id = $1", [rows[0]["id"]])
        await enqueue(conn, Actor.WHATSAPP_TEMPLATE_SUBMIT, rows[0]["id"])
    return await Template.get(id=rows[0]["id"], using_db=conn)


async def create(conn: BaseDBAsyncClient, tenant_pk: int, body: TemplateUpsert) -> Template:
    """A new template (/v1): 409 ``Conflict`` when the account already has one with this slug
    (the dashboard's POST upserts instead). In the caller's transaction, :func:`vet` first."""
    await conn.execute_query("SELECT id FROM tenants WHERE id = $1 FOR UPDATE", [tenant_pk])
    if await Template.filter(tenant_id=tenant_pk, slug=body.slug).using_db(conn).exists():
        raise errors.Conflict(f"This account already has a template {body.slug!r}.", details={"Slug": "taken"})
    return await upsert(conn, tenant_pk, body)


async def template_of(conn: BaseDBAsyncClient, tenant_pk: int, template_id: str, *, lock: bool = False) -> Template:
    """The account's template ``tpl_...``; another account's answers 404 exactly like a missing one."""
    query = Template.filter(tenant_id=tenant_pk, public_id=template_id).using_db(conn)
    found = await (query.select_for_update() if lock else query).first()
    if found is None:
        raise errors.NotFound("No template with this id in this account.")
    return found


async def replace(conn: BaseDBAsyncClient, tenant_pk: int, template_id: str, body: TemplateUpsert) -> Template:
    """The template ``template_id`` rewritten as ``body`` (same slug; :func:`vet` first). The row is
    locked, so a delete meanwhile answers 404 rather than the upsert making it again."""
    current = await template_of(conn, tenant_pk, template_id, lock=True)
    if current.slug != body.slug:  # the merge keeps the slug: a change of it is a new template
        raise errors.Unprocessable("A template's slug cannot change.", details={"Slug": "cannot change"})
    return await upsert(conn, tenant_pk, body)


async def delete(conn: BaseDBAsyncClient, tenant_pk: int, template_id: str) -> None:
    deleted = await Template.filter(tenant_id=tenant_pk, public_id=template_id).using_db(conn).delete()
    if not deleted:
        raise errors.NotFound("No template with this id in this account.")


async def page_of_templates(conn: BaseDBAsyncClient, tenant_pk: int, tenant_id: str, page: KeysetPage) -> Page[Template]:
    """One page of the account's templates, newest first (/v1 keyset paging, cursors signed for
    this account: templates belong to the account, not to a key's mode)."""
    found = await page.fetch(conn, Template.filter(tenant_id=tenant_pk).using_db(conn), audience=f"{tenant_id}:templates")
    for row in found.items:
        await render.inspect(row.channel, {"Subject": row.subject, "Text": row.text, "Html": row.html})
    return found


async def list_templates(conn: BaseDBAsyncClient, tenant_pk: int, limit: int) -> list[Template]:
    """The account's templates by slug, each one's variables already known (:func:`variables_of`
    then parses nothing on the event loop)."""
    rows = await Template.filter(tenant_id=tenant_pk).using_db(conn).order_by("slug").limit(limit)
    for row in rows:
        await render.inspect(row.channel, {"Subject": row.subject, "Text": row.text, "Html": row.html})
    return rows


def variables_of(template: Template) -> list[str]:
    return render.check(template.channel, {"Subject": template.subject, "Text": template.text,
                                           "Html": template.html})


async def rendered(conn: BaseDBAsyncClient, tenant_pk: int, slug: str, channel: str,
                   variables: dict[str, Any]) -> Rendered:
    """The account's template ``slug`` for ``channel`` rendered with ``variables`` (422 when it is
    unknown, of another channel, not approved, or a variable is missing)."""
    template = await Template.get_or_none(tenant_id=tenant_pk, slug=slug, using_db=conn)
    if template is None or template.channel != channel:
        raise errors.Unprocessable(f"Template {slug!r} is not a {channel} template of this account.",
                                   details={"Template": f"no {channel} template with this slug"})
    if not template.sendable:
        raise errors.Unprocessable(f"Template {slug!r} is not an approved template of this account "
                                   f"({template.status}).", details={"Template": f"not approved ({template.status})"})
    # An SMS longer than SMS_MAX is refused by the render itself (its output limit), with its reason.
    out = await render.render(channel, {"Subject": template.subject, "Text": template.text, "Html": template.html},
                              variables)
    return Rendered(template, out["Subject"], out["Text"], out["Html"])
