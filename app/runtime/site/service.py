"""Published pages: host + path resolved through the pages system (cached: app/runtime/site/cache.py),
the visitor's A/B variant, routing destinations, click counts and the pixel of the page's account.

    Site(app).page(host, slug, visitor)   -> Resolved | None  (the variant's blocks when a test runs)
    Site(app).redirect(host, slug)        -> dict | None      ({Id, Target, StatusCode})
    Site(app).published(host)             -> list[dict]       ([{Slug, PublishedAt}])
    Site(app).form(form_id)               -> dict | None      (the form with its TenantId)

The A/B rule is the pages system's (models/pages/page.py ``assign_variant``, replicated here so the
runtime imports nothing of another system; tests/runtime/test_site.py proves both agree): a bucket
0..99 from SHA-256 of ``<experiment id>:<visitor id>``, walked along the variants' weights in order.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sanic import Sanic

from app.http import errors
from app.http.services import services
from app.runtime.site.cache import MISSING, StaleCache
from models.runtime.pixel import Pixel, credential_of
from models.runtime.traffic import device as device_of

log = logging.getLogger("herald.runtime.site")

PAGES = "pages"
FORM_ID = re.compile(r"frm_[0-9a-f]{24}")


def bucket_of(experiment_id: str, visitor_id: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{experiment_id}:{visitor_id}".encode()).digest()[:8], "big") % 100


def assign_variant(experiment_id: str, visitor_id: str, weights: list[tuple[str, int]]) -> str | None:
    """The variant a visitor sees for the whole test (the pages system's rule)."""
    if not weights:
        return None
    bucket, edge = bucket_of(experiment_id, visitor_id), 0
    for variant_id, weight in weights:
        edge += weight
        if bucket < edge:
            return variant_id
    return weights[-1][0]


def _matches(rules: dict, country: str, device: str, hour: int) -> bool:
    countries = rules.get("Countries") or []
    if countries and country not in countries:
        return False
    devices = rules.get("Devices") or []
    if devices and device not in devices:
        return False
    hours = rules.get("Hours")
    if hours:
        start, end = int(hours.get("From", 0)), int(hours.get("To", 24))
        inside = start <= hour < end if start <= end else (hour >= start or hour < end)
        if not inside:
            return False
    return True


def choose_destination(destinations: list[dict], visitor_id: str, page_id: str, *, country: str, user_agent: str,
                       now: datetime | None = None) -> dict | None:
    """The routing destination for this visitor: those whose rules (country, device, UTC hours) admit
    the request, picked by weight with the visitor's stable bucket (the same visitor lands on the same
    destination); None when none is admitted or their weights are all 0 (the page itself is shown)."""
    hour = (now or datetime.now(timezone.utc)).hour
    device = device_of(user_agent)
    admitted = [item for item in destinations
                if item.get("Weight", 0) > 0 and _matches(item.get("Rules") or {}, country, device, hour)]
    total = sum(item["Weight"] for item in admitted)
    if not total:
        return None
    point = bucket_of(f"route:{page_id}", visitor_id) * total / 100
    edge = 0
    for item in admitted:
        edge += item["Weight"]
        if point < edge:
            return item
    return admitted[-1]


@dataclass
class Resolved:
    page: dict  # the pages system's ``Pagina``
    variant: str | None
    entry: Any  # the cache entry (rendered HTML is kept on it)


class Site:
    """The pages system as the runtime's public routes see it (one per process)."""

    def __init__(self, app: Sanic) -> None:
        self.app = app
        self.cache = StaleCache()

    def _client(self):
        return services(self.app).client(PAGES)

    async def _get(self, path: str, params: dict[str, str]) -> Any:
        answer = await self._client().get(path, params=params, outage=errors.ServiceUnavailable)
        if answer.status == 404:
            return MISSING
        if not answer.ok or not isinstance(answer.body, dict):
            log.error("pages answered %s to %s", answer.status, path)
            raise errors.UpstreamError()
        return answer.body

    async def page(self, host: str, slug: str, visitor: str) -> Resolved | None:
        base = await self.cache.get(("page", host, slug), lambda: self._page(host, slug, ""))
        if base.value is MISSING:
            return None
        variant, key = self._variant_of(base.value, host, slug, visitor)
        if key is None:
            return Resolved(base.value, None, base)
        entry = await self.cache.get(key, lambda: self._page(host, slug, visitor))
        if entry.value is MISSING:
            return None
        return Resolved(entry.value, entry.value.get("VariantId") or variant, entry)

    @staticmethod
    def _variant_of(page: dict, host: str, slug: str, visitor: str) -> tuple[str | None, tuple | None]:
        """The visitor's variant of the page's running A/B test and the cache key of its blocks, or
        (None, None) when no test runs (or there is no visitor to assign)."""
        experiment = page.get("Experiment")
        if not experiment or not visitor:
            return None, None
        weights = [(item["Id"], int(item["Weight"])) for item in experiment.get("Variantes") or []]
        variant = assign_variant(experiment["Id"], visitor, weights)
        return variant, ("variant", host, slug, experiment["Id"], variant)

    async def _page(self, host: str, slug: str, visitor: str) -> Any:
        params = {"dominio": host, "slug": slug}
        if visitor:
            params["visitante"] = visitor
        body = await self._get("/internal/v1/paginas", params)
        return MISSING if body is MISSING else body["Pagina"]

    async def redirect(self, host: str, slug: str) -> dict | None:
        async def fetch():
            body = await self._get("/internal/v1/redirects", {"dominio": host, "slug": slug})
            return MISSING if body is MISSING else body["Redirect"]
        entry = await self.cache.get(("redirect", host, slug), fetch)
        return entry.value

    async def published(self, host: str) -> list[dict]:
        async def fetch():
            body = await self._get("/internal/v1/paginas/publicadas", {"dominio": host})
            return [] if body is MISSING else body.get("Paginas") or []
        return (await self.cache.get(("published", host), fetch)).value

    async def form(self, form_id: str) -> dict | None:
        if not FORM_ID.fullmatch(form_id):  # not the shape of a form id of pages: nothing to ask
            return None

        async def fetch():
            body = await self._get(f"/internal/v1/formularios/{form_id}", {})
            return MISSING if body is MISSING else body["Formulario"]
        return (await self.cache.get(("form", form_id), fetch)).value

    async def pixel_tag(self, tenant: str, host: str) -> dict | None:
        """The account's enabled pixel for this host (its site or a parent of it), cached like pages'
        answers; None when the account has none (or the runtime database cannot say: the page is
        still served, without the pixel)."""
        async def fetch():
            try:
                rows = await Pixel.filter(tenant=tenant, enabled=True).order_by("id").limit(100)
            except Exception:  # noqa: BLE001 - the page goes out without its pixel
                log.exception("pixel lookup for %s failed", host)
                return MISSING
            for row in rows:
                if host == row.site or host.endswith("." + row.site):
                    return {"credential": credential_of(row), "replay": row.replay}
            return MISSING
        return (await self.cache.get(("pixel", tenant, host), fetch)).value


def site(app: Sanic) -> Site:
    found = getattr(app.ctx, "site", None)
    if found is None:
        found = app.ctx.site = Site(app)
    return found
