"""Experiment rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from models.pages import Experiment, Variant

NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
VARIANT_SHAPE = shape(
    Id=described(STRING, "The variant's id (`var_...`)."),
    Name=described(STRING, "Its name."),
    Weight=described({"type": "integer"}, "Its share of visitors, 0 to 100 (the weights sum to 100)."),
    Blocks=described({"type": "array", "items": {"type": "object"}}, "Its content blocks, as a page's."),
    Views=described({"type": "integer"}, "Views counted (summed from the runtime's flushes)."),
    Conversions=described({"type": "integer"}, "Conversions counted."),
    ConversionRate=described({"type": "number"}, "Conversions / views (6 decimals), 0 without views."),
    CreatedAt=described(TIMESTAMP, "When it was created (RFC 3339)."))
_VARIANTS = described({"type": "array", "items": VARIANT_SHAPE}, "Its variants, in creation order.")
EXPERIMENT_SHAPE = shape(
    Id=described(NULLABLE_STRING, "The experiment's id (`exp_...`); null when the page has none."),
    Status=described(NULLABLE_STRING, "`rascunho`, `rodando` or `concluido`; null when none."),
    Variantes=_VARIANTS,
    AutoStop=described({"type": ["object", "null"]}, "The auto-stop rule (`Enabled`, `MinViewsPerVariant`, "
                                                     "`Confidence`), or null when never set."),
    WinnerId=described(NULLABLE_STRING, "The promoted variant's id once concluded, else null."),
    StartedAt=described(NULLABLE_TIME, "When it started (RFC 3339), or null."),
    ConcludedAt=described(NULLABLE_TIME, "When it concluded (RFC 3339), or null."))
EXPERIMENT = reply_of(Experimento=described(EXPERIMENT_SHAPE, "The page's current (or last) experiment."))
VARIANT = reply_of(Variante=described(VARIANT_SHAPE, "The variant."))
VARIANTS = reply_of(Variantes=_VARIANTS)


def variant_view(row: Variant) -> dict:
    return {"Id": row.public_id, "Name": row.name, "Weight": row.weight, "Blocks": row.blocks, "Views": row.views,
            "Conversions": row.conversions,
            "ConversionRate": round(row.conversions / row.views, 6) if row.views else 0.0,
            "CreatedAt": iso(row.created_at)}


def experiment_view(experiment: Experiment | None, rows: list[Variant]) -> dict:
    """No experiment: the same shape, with null fields and no variants (never a 404)."""
    if experiment is None:
        return {"Id": None, "Status": None, "Variantes": [], "AutoStop": None, "WinnerId": None, "StartedAt": None,
                "ConcludedAt": None}
    winner = next((row.public_id for row in rows if row.id == experiment.winner_id), None)
    return {"Id": experiment.public_id, "Status": experiment.status, "Variantes": [variant_view(row) for row in rows],
            "AutoStop": experiment.auto_stop, "WinnerId": winner, "StartedAt": iso(experiment.started_at),
            "ConcludedAt": iso(experiment.concluded_at)}
