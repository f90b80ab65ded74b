"""GET and POST /api/templates: the account's templates on the dashboard (contract C3).

The account is the one the gate resolved (``X-Service-Tenant``, else the person's first; 403
``NoTenant`` without any). POST upserts by (account, slug) and answers 200 ``{Template}`` on
create and on update; the 101st template of an account is 409 ``LimitExceeded``. GET answers
``{Templates}`` by slug, at most ``limit`` (1..100, default 100: the whole account).
``DELETE /api/templates/{id}`` (``tpl_...``; owners and admins) removes one: 204, another account's
the same 404 as a missing one. Messages already accepted keep what they were rendered to (a
scheduled one still goes out as accepted: nothing renders at delivery).
``POST /api/templates/preview`` renders unsaved parts with the given variables through the same
render as a send (sandbox, budget, deadline) and saves nothing; 30 a minute per person.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import Body, example
from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape

from app.http.bodies import load_json, validate
from app.http.openapi import NO_CONTENT, answers
from app.http.query import int_param
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.gate import api as gate
from app.platform.template import render, service
from app.platform.template.schemas import TemplateUpsert
from app.platform.template.views import TEMPLATE, TEMPLATES, template_view
from models.platform.template import MAX_TEMPLATES_PER_ACCOUNT

bp = Blueprint("platform_dashboard_template")

MAX_BODY = 2 * 1024 * 1024
MAX_PREVIEW_BODY = 256 * 1024  # a preview is typed by a person in an editor
PREVIEWS_PER_MINUTE = 30  # per person: an editor previews on pauses, not on every key


class TemplatePreview(Body):
    """Parts as the editor holds them (nothing saved), and the variables to render them with."""
    model_config = example({"Channel": "email", "Subject": "Hi {{ name }}", "Html": "<p>Hello {{ name }}</p>",
                            "Variables": {"name": "Ana"}})

    channel: Literal["email", "sms", "push", "whatsapp"]
    """`email`, `sms`, `push` or `whatsapp`."""
    subject: Annotated[str, Field(min_length=1, max_length=998)] | None = None
    """The subject (e-mail) or title (push), with `{{ variables }}`."""
    text: Annotated[str, Field(min_length=1, max_length=100_000)] | None = None
    """The text, with `{{ variables }}`."""
    html: Annotated[str, Field(min_length=1, max_length=200_000)] | None = None
    """The HTML part (e-mail only), with `{{ variables }}`."""
    variables: Annotated[dict[str, Any], Field(max_length=100)] | None = None
    """Sample values to render with (at most 100), by variable name."""


PREVIEW = reply_of(
    Preview=described(shape(Subject=described(NULLABLE_STRING, "The rendered subject or title; null when none."),
                            Text=described(NULLABLE_STRING, "The rendered text; null when none."),
                            Html=described(NULLABLE_STRING, "The rendered HTML; null when none.")),
                      "The parts rendered with the sample variables."),
    Variables=described({"type": "array", "items": STRING}, "The variables the parts use, sorted."))


@bp.get("/api/templates", ctx_auth="session", ctx_tenant="header", ctx_query=("limit",), ctx_errors=(403,),
        ctx_responses=answers({200: TEMPLATES}))
async def list_templates(request: Request) -> HTTPResponse:
    """List the account's templates with the variables each uses.

    Any member of the account (`X-Service-Tenant`)."""
    limit = int_param(request, "limit", default=MAX_TEMPLATES_PER_ACCOUNT, low=1, high=MAX_TEMPLATES_PER_ACCOUNT)
    rows = await service.list_templates(db.connection(), gate.tenant(request).tenant_pk, limit)
    return reply(request, {"Templates": [template_view(row) for row in rows]})


@bp.post("/api/templates", ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_body=TemplateUpsert,
         ctx_errors=(403, 409, 413, 422), ctx_responses=answers({200: TEMPLATE}))
async def upsert_template(request: Request) -> HTTPResponse:
    """Create or update a template by its slug: its channel and parts, checked by a trial render before they are kept.

    Owners and admins (`X-Service-Tenant`). 422 for a part that does not render (beside its field in `Details`); 409
    over the account's number of templates."""
    body = validate(load_json(request, max_bytes=MAX_BODY), TemplateUpsert)
    await service.vet(body)  # the trial render, before the transaction: no connection held meanwhile
    async with db.transaction() as conn:
        template = await service.upsert(conn, gate.tenant(request).tenant_pk, body)
    return reply(request, {"Template": template_view(template)})


@bp.delete("/api/templates/<template_id:id>", ctx_auth="session", ctx_tenant="header", ctx_role="admin",
           ctx_errors=(403,), ctx_responses=answers({204: NO_CONTENT}))
async def delete_template(request: Request, template_id: str) -> HTTPResponse:
    """Delete one of the account's templates; messages already accepted from it still go out as accepted.

    Owners and admins (`X-Service-Tenant`); 204 when done, 404 for a template of another account."""
    async with db.transaction() as conn:
        await service.delete(conn, gate.tenant(request).tenant_pk, template_id)
    return no_content()


@bp.post("/api/templates/preview", ctx_auth="session", ctx_tenant="header", ctx_body=TemplatePreview,
         ctx_errors=(403, 413, 422, 429), ctx_responses=answers({200: PREVIEW}))
async def preview(request: Request) -> HTTPResponse:
    """Render a template's parts with sample variables without saving anything.

    Any member of the account (`X-Service-Tenant`). 422 for a part that does not render; 429 over the previews per
    person per minute."""
    body = validate(load_json(request, max_bytes=MAX_PREVIEW_BODY), TemplatePreview)
    decision = await request.app.ctx.dashboard_limiter.hit(
        f"template-preview:{request.ctx.session.user_id}", PREVIEWS_PER_MINUTE, 60)
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after, headers=decision.headers())
    # The checks and the trial render of a save, then the render of a send: one pipeline.
    draft = TemplateUpsert.model_validate({"Slug": "preview", "Channel": body.channel, "Subject": body.subject,
                                          "Text": body.text, "Html": body.html})
    await service.vet(draft)
    parts = service.parts_of(draft)
    out = await render.render(body.channel, parts, body.variables or {})
    return reply(request, {"Preview": {"Subject": out.get("Subject"), "Text": out.get("Text"), "Html": out.get("Html")},
                           "Variables": render.check(body.channel, parts)})
