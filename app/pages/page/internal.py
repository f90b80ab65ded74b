"""Internal routes for the publishing runtime (service credential; contract section G):

    GET /internal/v1/paginas?dominio=&slug=[&visitante=]   the published page at host/slug (404 when none);
                                                          with a visitor id and a running experiment, the
                                                          visitor's variant (hash-assigned, stable)
    GET /internal/v1/paginas/publicadas?dominio=          slug and date of each published page of the host
                                                          (an empty list for a host without pages)
    POST /internal/v1/paginas/{id}/cliques                per-destination click deltas (at most 20), summed
    POST /internal/v1/paginas/{id}/experimento/eventos    per-variant view and conversion deltas, summed
    GET /internal/v1/formularios/{id}                     a form, with its account (TenantId)
    GET /internal/v1/redirects?dominio=&slug=             a redirect's target (no account in the answer)
    POST /internal/v1/redirects/cliques                   per-redirect click deltas, summed
    GET /internal/v1/tls/authorize?domain=                {"Authorized": bool}: true only for a verified
                                                          custom domain; 503 when that cannot be known

A host serves an account's pages only once that account has verified it (custom domains).
"""

from __future__ import annotations

import logging
import time

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, answers, described, reply_of, shape
from app.http.responses import iso, reply
from app.pages import db, validation
from app.pages.brand.v1 import BRAND_ELEMENTS, brand_view
from app.pages.domain import service as domains
from app.pages.domain.views import AUTHORIZED
from app.pages.experiment import service as experiments
from app.pages.experiment.schemas import ExperimentEvents
from app.pages.form import service as forms
from app.pages.form.views import INTERNAL_FORM, internal_form_view
from app.pages.redirect import service as redirects
from app.pages.redirect.schemas import RedirectClicks
from app.pages.redirect.views import RESOLVED, resolved_view
from app.pages.routing import service as routing
from app.pages.routing.schemas import PageClicks
from app.pages.routing.views import COUNTED, destination_view
from models.pages import Brand, Page, PageVersion
from models.pages.page import ExperimentStatus, PageStatus, assign_variant

log = logging.getLogger("herald.pages")

bp = Blueprint("internal_pages", url_prefix="/internal/v1")

OBJECTS = {"type": "array", "items": {"type": "object"}}
PUBLISHED_PAGE = reply_of(Pagina=described(shape(
    Id=described(STRING, "The page's id."),
    TenantId=described(STRING, "The account it belongs to."),
    Domain=described(STRING, "The host it is served on."),
    Slug=described(STRING, "Its path, as published."),
    Title=described(STRING, "Its title, as published."),
    Blocks=described(OBJECTS, "The blocks to render: the live version's, or the visitor's variant's."),
    Seo=described({"type": "object"}, "The live version's SEO."),
    Version=described({"type": "integer"}, "The number of the live version."),
    PublishedAt=described(TIMESTAMP, "When the live version was published (RFC 3339)."),
    VariantId=described(NULLABLE_STRING, "The visitor's variant in the running experiment, or null (no experiment "
                                         "or no `visitante`)."),
    Experiment=described({"type": ["object", "null"]}, "The running experiment (`Id`, `Variantes` with `Id` and "
                                                       "`Weight`), or null."),
    Destinos=described(OBJECTS, "The page's routing destinations (`Id`, `Url`, `Weight`, `Rules`, `Clicks`)."),
    Brand=described(BRAND_ELEMENTS, "The account's brand elements.")), "The published page."))
PUBLISHED_LIST = reply_of(Paginas=described({"type": "array", "items": shape(
    Slug=described(STRING, "The page's path."),
    PublishedAt=described(TIMESTAMP, "When its live version was published (RFC 3339)."))},
    "The host's published pages, by slug (for the sitemap)."))
TLS_CACHE_SECONDS = 1.0
TLS_CACHE_ENTRIES = 10_000


def _host(request: Request, name: str) -> str:
    raw = request.args.get(name, "")
    try:
        return validation.host(raw)
    except ValueError:
        raise errors.NotFound("Not found.") from None


def _slug(request: Request) -> str:
    raw = request.args.get("slug", "")
    if not validation.SLUG.fullmatch(raw):
        raise errors.NotFound("Not found.")
    return raw


@bp.get("/paginas", ctx_auth="service", ctx_query=("dominio", "slug", "visitante"),
        ctx_responses=answers({200: PUBLISHED_PAGE}))
async def published_page(request: Request) -> HTTPResponse:
    """The published page at ``dominio``/``slug`` (404 when none)."""
    host, slug = _host(request, "dominio"), _slug(request)
    visitor = request.args.get("visitante", "")[:200]
    conn = db.connection()
    tenants = await domains.verified_tenants(conn, host)
    page = await Page.filter(domain=host, slug=slug, tenant_id__in=tenants, status=PageStatus.PUBLISHED.value).using_db(
        conn).first() if tenants else None
    if page is None or page.live_version is None:
        raise errors.NotFound("No published page at this address.")
    version = await PageVersion.get(page_id=page.id, number=page.live_version).using_db(conn)
    blocks, variant_id, experiment_body = version.blocks, None, None
    experiment = await experiments.current(conn, page)
    if experiment is not None and experiment.status == ExperimentStatus.RUNNING.value:
        rows = await experiments.variants(conn, experiment)
        experiment_body = {"Id": experiment.public_id,
                           "Variantes": [{"Id": row.public_id, "Weight": row.weight} for row in rows]}
        if visitor:
            variant_id = assign_variant(experiment.public_id, visitor, [(row.public_id, row.weight) for row in rows])
            blocks = next(row.blocks for row in rows if row.public_id == variant_id)
    destinations = await routing.destinations(conn, page)
    brand = await Brand.get_or_none(tenant_id=page.tenant_id).using_db(conn)
    return reply(request, {"Pagina": {
        "Id": page.public_id, "TenantId": page.tenant_id, "Domain": page.domain, "Slug": version.slug,
        "Title": version.title, "Blocks": blocks, "Seo": version.seo, "Version": version.number,
        "PublishedAt": iso(version.published_at), "VariantId": variant_id, "Experiment": experiment_body,
        "Destinos": [destination_view(row) for row in destinations], "Brand": brand_view(brand)}})


@bp.get("/paginas/publicadas", ctx_auth="service", ctx_query=("dominio",), ctx_responses=answers({200: PUBLISHED_LIST}))
async def published_pages(request: Request) -> HTTPResponse:
    """Slug and date of each published page of the host (for the sitemap); empty for a host without pages."""
    try:
        host = validation.host(request.args.get("dominio", ""))
    except ValueError:
        return reply(request, {"Paginas": []})
    conn = db.connection()
    tenants = await domains.verified_tenants(conn, host)
    rows = await Page.filter(domain=host, tenant_id__in=tenants, status=PageStatus.PUBLISHED.value).using_db(
        conn).order_by("slug").values_list("slug", "published_at") if tenants else []
    return reply(request, {"Paginas": [{"Slug": slug, "PublishedAt": iso(moment)} for slug, moment in rows]})


async def _page(conn, page_id: str) -> Page:
    page = await Page.filter(public_id=page_id).using_db(conn).first()
    if page is None:
        raise errors.NotFound("Page not found.")
    return page


@bp.post("/paginas/<page_id:id>/cliques", ctx_auth="service", ctx_body=PageClicks,
         ctx_responses=answers({200: COUNTED}))
async def page_clicks(request: Request, page_id: str) -> HTTPResponse:
    """Adds the runtime's per-destination click deltas (at most 20 destinations)."""
    body = parse_body(request, PageClicks)
    async with db.transaction() as conn:
        deltas = [(delta.destination_id, delta.count) for delta in body.deltas]
        counted = await routing.add_clicks(conn, await _page(conn, page_id), deltas)
    return reply(request, {"Counted": counted})


@bp.post("/paginas/<page_id:id>/experimento/eventos", ctx_auth="service", ctx_body=ExperimentEvents,
         ctx_responses=answers({200: COUNTED}))
async def experiment_events(request: Request, page_id: str) -> HTTPResponse:
    """Adds views and conversions to the variants of the page's running experiment."""
    body = parse_body(request, ExperimentEvents)
    async with db.transaction() as conn:
        deltas = [(delta.variant_id, delta.views, delta.conversions) for delta in body.deltas]
        counted = await experiments.add_events(conn, await _page(conn, page_id), deltas)
    return reply(request, {"Counted": counted})


@bp.get("/formularios/<form_id:id>", ctx_auth="service", ctx_responses=answers({200: INTERNAL_FORM}))
async def internal_form(request: Request, form_id: str) -> HTTPResponse:
    """A form by id, with the account it belongs to."""
    conn = db.connection()
    form = await forms.find(conn, None, form_id)
    verified = await domains.verified_names(conn, form.tenant_id)
    return reply(request, {"Formulario": internal_form_view(form, verified)})


@bp.get("/redirects", ctx_auth="service", ctx_query=("dominio", "slug"), ctx_responses=answers({200: RESOLVED}))
async def internal_redirect(request: Request) -> HTTPResponse:
    """The redirect at ``dominio``/r/``slug`` (no account in the answer)."""
    row = await redirects.resolve(db.connection(), _host(request, "dominio"), _slug(request))
    return reply(request, {"Redirect": resolved_view(row)})


@bp.post("/redirects/cliques", ctx_auth="service", ctx_body=RedirectClicks, ctx_responses=answers({200: COUNTED}))
async def redirect_clicks(request: Request) -> HTTPResponse:
    """Adds the runtime's per-redirect click deltas."""
    body = parse_body(request, RedirectClicks)
    async with db.transaction() as conn:
        counted = await redirects.add_clicks(conn, [(delta.redirect_id, delta.count) for delta in body.deltas])
    return reply(request, {"Counted": counted})


class TlsCache:
    """host -> (expires, authorized), per process, bounded: the ask is answered from memory for at
    most :data:`TLS_CACHE_SECONDS` after the database said so (a deleted domain stops within that)."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[float, bool]] = {}

    async def authorized(self, host: str) -> bool:
        now = time.monotonic()
        hit = self._entries.get(host)
        if hit is not None and hit[0] > now:
            return hit[1]
        try:
            answer = await domains.tls_authorized(db.connection(), host)
        except Exception:  # noqa: BLE001 - an internal failure is a 503, never a false
            log.exception("TLS ask for %s could not be answered", host)
            raise errors.ServiceUnavailable("TLS authorization cannot be decided right now.", retry_after=1) from None
        if len(self._entries) >= TLS_CACHE_ENTRIES:
            self._entries.clear()
        self._entries[host] = (now + TLS_CACHE_SECONDS, answer)
        return answer


def tls_cache(request: Request) -> TlsCache:
    found = getattr(request.app.ctx, "tls_cache", None)
    if found is None:
        found = request.app.ctx.tls_cache = TlsCache()
    return found


async def _ask(request: Request) -> bool:
    try:
        host = validation.host(request.args.get("domain", ""))
    except ValueError:
        return False
    return await tls_cache(request).authorized(host)


@bp.get("/tls/authorize", ctx_auth="service", ctx_query=("domain",), ctx_errors=(503,),
        ctx_responses=answers({200: AUTHORIZED}))
async def tls_authorize(request: Request) -> HTTPResponse:
    """Whether a certificate may be issued for ``domain``: true only for a verified custom domain."""
    return reply(request, {"Authorized": await _ask(request)})


tls_bp = Blueprint("tls_ask")


@tls_bp.get("/tls/ask", ctx_public=True, ctx_query=("domain",), ctx_errors=(404, 503),
            ctx_responses=answers({200: AUTHORIZED}))
async def tls_ask(request: Request) -> HTTPResponse:
    """Tell a reverse proxy whether to get a TLS certificate for a host.

    For a reverse proxy's on-demand TLS ``ask`` (no credential; any 2xx means yes): 200 only for a
    verified custom domain, 404 for anything else, 503 when it cannot be decided."""
    if not await _ask(request):
        raise errors.NotFound("Not a verified domain.")
    return reply(request, {"Authorized": True})
