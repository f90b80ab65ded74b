"""A/B experiments of a page (scopes ``pages:read``, ``pages:write``, ``pages:publish``):

    GET/POST /v1/paginas/{id}/variantes             the current experiment's variants; add one (the first
                                                    creates the experiment, in draft)
    GET /v1/paginas/{id}/experimento                200 with empty variants when there is none
    POST /v1/paginas/{id}/ab/promover               draft: start (weights sum to 100, else 422);
                                                    running: promote the winner (``VariantId`` or the best)
                                                    and conclude (pages:publish)
    PUT /v1/paginas/{id}/experimento/auto-stop      while running: stop and promote when the rule is met
                                                    (evaluated by a scheduled job) (pages:publish)
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body, validate, load_json
from app.http.openapi import answers
from app.http.responses import reply
from app.pages import db
from app.pages.experiment import service
from app.pages.experiment.schemas import AutoStop, Promotion, VariantCreate
from app.pages.experiment.views import EXPERIMENT, VARIANT, VARIANTS, experiment_view, variant_view
from app.pages.gate.v1 import tenant_of
from app.pages.page.schemas import MAX_BODY_BYTES

bp = Blueprint("v1_experiments", url_prefix="/v1")


@bp.get("/paginas/<page_id:id>/variantes", ctx_scope="pages:read", ctx_responses=answers({200: VARIANTS}))
async def list_variants(request: Request, page_id: str) -> HTTPResponse:
    """The variants of the page's current (or last) experiment; empty when none."""
    experiment, rows = await service.read(db.connection(), tenant_of(request), page_id)
    return reply(request, {"Variantes": [variant_view(row) for row in rows]})


@bp.post("/paginas/<page_id:id>/variantes", ctx_scope="pages:write", ctx_body=VariantCreate, ctx_errors=(409, 422),
         ctx_responses=answers({201: VARIANT}))
async def add_variant(request: Request, page_id: str) -> HTTPResponse:
    """Adds a variant; the first one creates the experiment in draft."""
    body = parse_body(request, VariantCreate, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.add_variant(conn, tenant_of(request), page_id, **body.values())
    return reply(request, {"Variante": variant_view(row)}, status=201)


@bp.get("/paginas/<page_id:id>/experimento", ctx_scope="pages:read", ctx_responses=answers({200: EXPERIMENT}))
async def get_experiment(request: Request, page_id: str) -> HTTPResponse:
    """The page's experiment; with null fields and empty variants when there is none."""
    experiment, rows = await service.read(db.connection(), tenant_of(request), page_id)
    return reply(request, {"Experimento": experiment_view(experiment, rows)})


@bp.post("/paginas/<page_id:id>/ab/promover", ctx_scope="pages:publish", ctx_optional_body=Promotion,
         ctx_errors=(409, 422), ctx_responses=answers({200: EXPERIMENT}))
async def promote(request: Request, page_id: str) -> HTTPResponse:
    """Starts a draft experiment, or promotes the winner of a running one and concludes it."""
    body = validate(load_json(request), Promotion) if (request.body or b"").strip() else Promotion()
    async with db.transaction() as conn:
        experiment, rows = await service.promote(conn, tenant_of(request), page_id, body.variant_id)
    return reply(request, {"Experimento": experiment_view(experiment, rows)})


@bp.put("/paginas/<page_id:id>/experimento/auto-stop", ctx_scope="pages:publish", ctx_body=AutoStop,
        ctx_errors=(409,), ctx_responses=answers({200: EXPERIMENT}))
async def auto_stop(request: Request, page_id: str) -> HTTPResponse:
    """Sets the auto-stop rule of the running experiment."""
    body = parse_body(request, AutoStop)
    async with db.transaction() as conn:
        experiment, rows = await service.set_auto_stop(conn, tenant_of(request), page_id,
                                                       body.model_dump(by_alias=True))
    return reply(request, {"Experimento": experiment_view(experiment, rows)})
