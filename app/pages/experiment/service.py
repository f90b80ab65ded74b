"""A/B experiments of a page (contract, section G rule 2 and "States and transitions"):

    (none) --first variant--> rascunho --promover (weights sum to 100)--> rodando
    rodando --promover (winner named, or the best)--> concluido     (the winner's blocks published)
    rodando --auto-stop rule met (scheduled evaluation)--> concluido

A page has at most one experiment that is not concluded; a new variant after a conclusion starts
a new experiment. Visitors are assigned by :func:`models.pages.page.assign_variant` (a hash of the
visitor id), so a visitor sees one variant for the whole test.

Auto-stop: the rule is :func:`models.pages.page.stop_rule_met`, evaluated every minute by the
``pages_experiments.evaluate`` actor (schedules/pages/experiments.py enqueues it).
"""

from __future__ import annotations

from datetime import datetime, timezone

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.pages.errors import ExperimentState
from app.pages.page import service as pages
from models.pages import Experiment, Page, Variant
from models.pages.page import MAX_VARIANTS, ExperimentStatus, conclude, conversion_rate


async def current(conn: BaseDBAsyncClient, page: Page, *, lock: bool = False) -> Experiment | None:
    query = Experiment.filter(page_id=page.id).exclude(status=ExperimentStatus.CONCLUDED.value).using_db(conn)
    if lock:
        query = query.select_for_update()
    found = await query.first()
    if found is None and not lock:  # the last concluded one, to show its result
        found = await Experiment.filter(page_id=page.id).using_db(conn).order_by("-id").first()
    return found


async def variants(conn: BaseDBAsyncClient, experiment: Experiment | None) -> list[Variant]:
    if experiment is None:
        return []
    return await Variant.filter(experiment_id=experiment.id).using_db(conn).order_by("id")


async def read(conn: BaseDBAsyncClient, tenant: str, page_id: str) -> tuple[Experiment | None, list[Variant]]:
    page = await pages.find(conn, tenant, page_id)
    experiment = await current(conn, page)
    return experiment, await variants(conn, experiment)


async def add_variant(conn: BaseDBAsyncClient, tenant: str, page_id: str, *, name: str, weight: int,
                      blocks: list[dict] | None) -> Variant:
    """``blocks`` None: a copy of the page's draft."""
    page = await pages.find(conn, tenant, page_id, lock=True)
    experiment = await current(conn, page, lock=True)
    if experiment is None:
        experiment = await Experiment.create(using_db=conn, page_id=page.id)
    elif experiment.status != ExperimentStatus.DRAFT.value:
        raise ExperimentState("Variants are added while the experiment is a draft; this one is running.")
    if await Variant.filter(experiment_id=experiment.id).using_db(conn).count() >= MAX_VARIANTS:
        raise errors.Unprocessable(f"An experiment has at most {MAX_VARIANTS} variants.")
    if blocks is not None:
        await pages.check_references(conn, tenant, blocks)
    else:
        blocks = page.blocks
    return await Variant.create(using_db=conn, experiment_id=experiment.id, name=name.strip() or "variant",
                                weight=weight, blocks=blocks)


async def promote(conn: BaseDBAsyncClient, tenant: str, page_id: str,
                  variant_id: str | None) -> tuple[Experiment, list[Variant]]:
    """Starts a draft experiment, or concludes a running one with its winner published."""
    page = await pages.find(conn, tenant, page_id, lock=True)
    experiment = await current(conn, page, lock=True)
    if experiment is None:
        raise ExperimentState("The page has no experiment to start or conclude; add variants first.")
    rows = await variants(conn, experiment)
    now = datetime.now(timezone.utc)
    if experiment.status == ExperimentStatus.DRAFT.value:
        if variant_id is not None:
            raise errors.Unprocessable("A draft experiment is started, not concluded: send no VariantId.",
                                       details={"VariantId": "not accepted while the experiment is a draft"})
        if len(rows) < 2:
            raise errors.Unprocessable("An experiment needs at least two variants to start.",
                                       details={"Variantes": "at least two"})
        total = sum(row.weight for row in rows)
        if total != 100:
            raise errors.Unprocessable(f"The variants' weights sum to {total}; they must sum to 100.",
                                       details={"Weight": f"sum is {total}, must be 100"})
        experiment.status, experiment.started_at = ExperimentStatus.RUNNING.value, now
        await experiment.save(using_db=conn)
        return experiment, rows
    if variant_id is not None:
        winner = next((row for row in rows if row.public_id == variant_id), None)
        if winner is None:
            raise errors.NotFound("Variant not found.")
    else:
        winner = best(rows)
    await conclude(conn, page, experiment, winner)
    return experiment, rows


def best(rows: list[Variant]) -> Variant:
    """The highest conversion rate; ties go to more views, then to the earlier variant."""
    return max(rows, key=lambda row: (conversion_rate(row), row.views))


async def set_auto_stop(conn: BaseDBAsyncClient, tenant: str, page_id: str,
                        rule: dict) -> tuple[Experiment, list[Variant]]:
    """``rule``: ``{Enabled, MinViewsPerVariant, Confidence}`` (models/pages/page.py: stop_rule_met)."""
    page = await pages.find(conn, tenant, page_id, lock=True)
    experiment = await current(conn, page, lock=True)
    if experiment is None or experiment.status != ExperimentStatus.RUNNING.value:
        raise ExperimentState("Auto-stop is set while the experiment is running.")
    experiment.auto_stop = rule
    await experiment.save(using_db=conn, update_fields=["auto_stop"])
    return experiment, await variants(conn, experiment)


async def add_events(conn: BaseDBAsyncClient, page: Page, deltas: list[tuple[str, int, int]]) -> int:
    """(variant id, views, conversions) deltas of the page's running experiment's variants, summed
    in one statement (several for one variant added together)."""
    views: dict[str, int] = {}
    conversions: dict[str, int] = {}
    for variant_id, seen, converted in deltas:
        views[variant_id] = views.get(variant_id, 0) + seen
        conversions[variant_id] = conversions.get(variant_id, 0) + converted
    ids = list(views)
    counted, _ = await conn.execute_query(
        "UPDATE page_variants AS v SET views = v.views + x.views, conversions = v.conversions + x.conversions "
        "FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS x(id, views, conversions), page_experiments AS e "
        "WHERE v.public_id = x.id AND v.experiment_id = e.id AND e.page_id = $4 AND e.status = $5",
        [ids, [views[i] for i in ids], [conversions[i] for i in ids], page.id, ExperimentStatus.RUNNING.value])
    return counted
