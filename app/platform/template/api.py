"""GET and POST /api/templates: the account's templates on the dashboard (contract C3).

The account is the one the gate resolved (``X-Service-Tenant``, else the person's first; 403
``NoTenant`` without any). POST upserts by (account, slug) and answers 200 ``{Template}`` on
create and on update; the 101st template of an account is 409 ``LimitExceeded``. GET answers
``{Templates}`` by slug, at most ``limit`` (1..100, default 100: the whole account).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import load_json, validate
from app.http.openapi import answers
from app.http.query import int_param
from app.http.responses import reply
from app.platform import db
from app.platform.session import gate
from app.platform.template import service
from app.platform.template.schemas import TemplateUpsert
from app.platform.template.views import TEMPLATE, TEMPLATES, template_view
from models.platform.template import MAX_TEMPLATES_PER_ACCOUNT

bp = Blueprint("platform_dashboard_template")

MAX_BODY = 2 * 1024 * 1024


@bp.get("/api/templates", ctx_auth="session", ctx_tenant="header", ctx_query=("limit",), ctx_errors=(403,),
        ctx_responses=answers({200: TEMPLATES}))
async def list_templates(request: Request) -> HTTPResponse:
    limit = int_param(request, "limit", default=MAX_TEMPLATES_PER_ACCOUNT, low=1, high=MAX_TEMPLATES_PER_ACCOUNT)
    rows = await service.list_templates(db.connection(), gate.tenant(request).tenant_pk, limit)
    return reply(request, {"Templates": [template_view(row) for row in rows]})


@bp.post("/api/templates", ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_body=TemplateUpsert,
         ctx_errors=(403, 409, 413, 422), ctx_responses=answers({200: TEMPLATE}))
async def upsert_template(request: Request) -> HTTPResponse:
    body = validate(load_json(request, max_bytes=MAX_BODY), TemplateUpsert)
    async with db.transaction() as conn:
        template = await service.upsert(conn, gate.tenant(request).tenant_pk, body)
    return reply(request, {"Template": template_view(template)})
