"""``POST /v1/ia/gerar-pagina`` (``pages:write``): a brief in, page blocks out; nothing saved.
503 when no provider is configured (docs/pages.md, "AI page generation"). ``GET /v1/ia/disponibilidade``
(``pages:read``) says whether one is, so a screen can say so before anyone writes a brief. The blueprint loads the AI
plug-in when the server starts (``app.ctx.ai_provider``) and closes it when it stops."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request, Sanic

from app.http.bodies import parse_body
from app.http.openapi import STRING, answers, described, reply_of, shape
from app.http.responses import reply
from app.pages.ai import service
from app.pages.ai.schemas import GenerationRequest, generated_page

bp = Blueprint("v1_ai", url_prefix="/v1")


@bp.before_server_start
async def load_ai_provider(app: Sanic) -> None:
    app.ctx.ai_provider = service.load_provider(app.ctx.settings)


@bp.after_server_stop
async def close_ai_provider(app: Sanic) -> None:
    provider = getattr(app.ctx, "ai_provider", None)
    if provider is not None:
        await provider.aclose()

GENERATED = reply_of(Pagina=described(shape(
    Title=described(STRING, "A title for the page."),
    Blocks=described({"type": "array", "items": {"type": "object"}}, "Its blocks, as `POST /v1/paginas` takes them."),
    Seo=described({"type": "object"}, "Its SEO, as `POST /v1/paginas` takes it.")), "The page drafted (not saved)."))


@bp.post("/ia/gerar-pagina", ctx_scope="pages:write", ctx_body=GenerationRequest, ctx_errors=(502, 503),
         ctx_responses=answers({200: GENERATED}))
async def generate_page(request: Request) -> HTTPResponse:
    """Drafts page blocks from a brief through the configured AI provider; saves nothing."""
    body = parse_body(request, GenerationRequest)
    provider = service.provider_of(getattr(request.app.ctx, "ai_provider", None))
    answer = await service.generate(provider, body.brief, body.language)
    return reply(request, {"Pagina": generated_page(answer)})


AVAILABILITY = reply_of(Disponivel=described({"type": "boolean"},
                                             "Whether an AI provider is configured (`AI_BASE_URL`): without one, "
                                             "`POST /v1/ia/gerar-pagina` answers 503."))


@bp.get("/ia/disponibilidade", ctx_scope="pages:read", ctx_responses=answers({200: AVAILABILITY}))
async def generation_availability(request: Request) -> HTTPResponse:
    """Whether AI page generation is available (a provider is configured); asks the provider nothing."""
    return reply(request, {"Disponivel": getattr(request.app.ctx, "ai_provider", None) is not None})
