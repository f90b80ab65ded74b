"""Pages, their published versions, routing destinations (with click counters) and A/B experiments.

A page has a draft (``blocks``, ``seo``, ``title``, ``slug`` on the row) and, once published, a
frozen copy of what visitors see (:class:`PageVersion`, numbered 1, 2, ... per page; the page row
points at the live one). Unpublishing clears the pointer and keeps every version to roll back to.
"""

from __future__ import annotations

import hashlib
import math
from datetime import datetime, timezone
from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from models.pages.base import (new_page_id, new_destination_id, new_experiment_id, new_variant_id,
                               tenant_field)


MAX_VARIANTS = 10  # per experiment


class PageStatus(StrEnum):
    DRAFT = "rascunho"
    PUBLISHED = "publicado"


class ExperimentStatus(StrEnum):
    DRAFT = "rascunho"
    RUNNING = "rodando"
    CONCLUDED = "concluido"


class Page(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_page_id)
    tenant_id = tenant_field()
    # The custom domain (host) the page is served on; '' when none yet.
    domain = fields.CharField(max_length=253, default="")
    slug = fields.CharField(max_length=100)
    title = fields.CharField(max_length=200)
    blocks: list = fields.JSONField(default=list)
    seo: dict = fields.JSONField(default=dict)
    status = fields.CharField(max_length=12, default=PageStatus.DRAFT.value)
    live_version = fields.IntField(null=True)
    last_version = fields.IntField(default=0)
    published_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "pages"
        unique_together = (("tenant_id", "domain", "slug"),)


class PageVersion(Model):
    id = fields.BigIntField(primary_key=True)
    page = fields.ForeignKeyField("pages.Page", related_name="versions", on_delete=fields.CASCADE)
    number = fields.IntField()
    slug = fields.CharField(max_length=100)
    title = fields.CharField(max_length=200)
    blocks: list = fields.JSONField(default=list)
    seo: dict = fields.JSONField(default=dict)
    published_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "page_versions"
        unique_together = (("page", "number"),)


class Destination(Model):
    """One routing destination of a page; ``clicks`` grows by the deltas the runtime flushes."""

    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_destination_id)
    page = fields.ForeignKeyField("pages.Page", related_name="destinations", on_delete=fields.CASCADE)
    position = fields.SmallIntField()
    url = fields.CharField(max_length=2048)
    weight = fields.SmallIntField()
    rules: dict = fields.JSONField(default=dict)
    clicks = fields.BigIntField(default=0)

    class Meta:
        table = "page_destinations"


class Experiment(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_experiment_id)
    page = fields.ForeignKeyField("pages.Page", related_name="experiments", on_delete=fields.CASCADE)
    status = fields.CharField(max_length=12, default=ExperimentStatus.DRAFT.value)
    auto_stop: dict | None = fields.JSONField(null=True)
    winner_id = fields.BigIntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    started_at = fields.DatetimeField(null=True)
    concluded_at = fields.DatetimeField(null=True)

    class Meta:
        table = "page_experiments"


class Variant(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_variant_id)
    experiment = fields.ForeignKeyField("pages.Experiment", related_name="variants", on_delete=fields.CASCADE)
    name = fields.CharField(max_length=100)
    blocks: list = fields.JSONField(default=list)
    weight = fields.SmallIntField()
    views = fields.BigIntField(default=0)
    conversions = fields.BigIntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "page_variants"


def assign_variant(experiment_id: str, visitor_id: str, weights: list[tuple[str, int]]) -> str | None:
    """The variant a visitor sees for the whole test: a bucket 0..99 from SHA-256 of
    ``<experiment id>:<visitor id>``, walked along the variants' weights in creation order."""
    if not weights:
        return None
    bucket = int.from_bytes(hashlib.sha256(f"{experiment_id}:{visitor_id}".encode()).digest()[:8], "big") % 100
    edge = 0
    for variant_id, weight in weights:
        edge += weight
        if bucket < edge:
            return variant_id
    return weights[-1][0]


# --- row transitions shared by the HTTP surface and the workers -------------------------------

Z_ONE_SIDED = {0.9: 1.2816, 0.95: 1.6449, 0.99: 2.3263}


async def publish_draft(conn, page: Page) -> PageVersion:
    """The page's draft becomes version N+1, live at once (the caller holds the row locked)."""
    page.last_version += 1
    version = await PageVersion.create(using_db=conn, page=page, number=page.last_version, slug=page.slug,
                                       title=page.title, blocks=page.blocks, seo=page.seo)
    page.live_version = version.number
    page.status = PageStatus.PUBLISHED.value
    page.published_at = version.published_at
    await page.save(using_db=conn)
    return version


def conversion_rate(row: Variant) -> float:
    return row.conversions / row.views if row.views else 0.0


def stop_rule_met(rows: list[Variant], rule: dict | None) -> Variant | None:
    """The winner when the auto-stop rule is met, else None: every variant has at least
    ``MinViewsPerVariant`` views, and the best conversion rate beats the runner-up's in a one-sided
    two-proportion z-test at ``Confidence``."""
    if not rule or not rule.get("Enabled") or len(rows) < 2:
        return None
    if any(row.views < rule["MinViewsPerVariant"] for row in rows):
        return None
    ranked = sorted(rows, key=lambda row: (conversion_rate(row), row.views), reverse=True)
    first, second = ranked[0], ranked[1]
    pooled = (first.conversions + second.conversions) / (first.views + second.views)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / first.views + 1 / second.views))
    if spread == 0:
        return None
    z = (conversion_rate(first) - conversion_rate(second)) / spread
    return first if z >= Z_ONE_SIDED[float(rule["Confidence"])] else None


async def conclude(conn, page: Page, experiment: Experiment, winner: Variant) -> None:
    """The winner's blocks become the page's draft and are published; the experiment concludes."""
    page.blocks = winner.blocks
    await publish_draft(conn, page)
    experiment.status = ExperimentStatus.CONCLUDED.value
    experiment.winner_id = winner.id
    experiment.concluded_at = datetime.now(timezone.utc)
    await experiment.save(using_db=conn)


async def evaluate_auto_stop(conn, experiment_pk: int) -> bool:
    """One running experiment with auto-stop on: concluded with its winner when the rule is met.
    True when it concluded. Safe to run twice (a concluded experiment is left alone)."""
    experiment = await Experiment.filter(id=experiment_pk, status=ExperimentStatus.RUNNING.value).using_db(
        conn).select_for_update().first()
    if experiment is None or not experiment.auto_stop:
        return False
    rows = await Variant.filter(experiment_id=experiment.id).using_db(conn).order_by("id")
    winner = stop_rule_met(rows, experiment.auto_stop)
    if winner is None:
        return False
    page = await Page.filter(id=experiment.page_id).using_db(conn).select_for_update().first()
    await conclude(conn, page, experiment, winner)
    return True
