"""Experiment rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from models.pages import Experiment, Variant

NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
VARIANT_SHAPE = shape(Id=STRING, Name=STRING, Weight={"type": "integer"},
                      Blocks={"type": "array", "items": {"type": "object"}}, Views={"type": "integer"},
                      Conversions={"type": "integer"}, ConversionRate={"type": "number"}, CreatedAt=TIMESTAMP)
EXPERIMENT_SHAPE = shape(Id=NULLABLE_STRING, Status=NULLABLE_STRING,
                         Variantes={"type": "array", "items": VARIANT_SHAPE},
                         AutoStop={"type": ["object", "null"]}, WinnerId=NULLABLE_STRING, StartedAt=NULLABLE_TIME,
                         ConcludedAt=NULLABLE_TIME)
EXPERIMENT = reply_of(Experimento=EXPERIMENT_SHAPE)
VARIANT = reply_of(Variante=VARIANT_SHAPE)
VARIANTS = reply_of(Variantes={"type": "array", "items": VARIANT_SHAPE})


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
