"""Experiment bodies: a variant, the promotion (optionally naming the winner), the auto-stop rule,
and the runtime's per-variant view and conversion deltas."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from app.http.bodies import Body, FieldProblem, example
from app.pages.page.schemas import Blocks, dump_blocks
from models.pages.page import MAX_VARIANTS


Id = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]


class VariantCreate(Body):
    """``Blocks`` absent: the variant starts as a copy of the page's draft."""

    name: str = Field(min_length=1, max_length=100)
    """The variant's name (1 to 100 characters)."""
    weight: int = Field(ge=0, le=100)
    """Its share of visitors, 0 to 100 (the weights sum to 100)."""
    blocks: Blocks | None = None
    """Its blocks; absent, it starts as a copy of the page's draft."""

    def values(self) -> dict:
        return {"name": self.name, "weight": self.weight,
                "blocks": None if self.blocks is None else dump_blocks(self.blocks)}


class Promotion(Body):
    """On a running experiment: the winner to promote (absent: the best conversion rate)."""

    variant_id: Id | None = None
    """The winner to promote; absent, the best conversion rate."""


class AutoStop(Body):
    enabled: bool
    """Whether the experiment stops itself when the rule is met."""
    min_views_per_variant: int = Field(default=1000, ge=100, le=10_000_000)
    """The views every variant needs first (at least 100, 1000 by default)."""
    confidence: Literal[0.9, 0.95, 0.99] = 0.95
    """The confidence the best conversion rate must beat the runner-up's at: 0.9, 0.95 (default) or 0.99."""


class VariantDelta(Body):
    variant_id: Id
    """The variant (`var_...`); one not of the page's running experiment is skipped."""
    views: int = Field(default=0, ge=0, le=1_000_000)
    """Views to add (0 to 1000000)."""
    conversions: int = Field(default=0, ge=0, le=1_000_000)
    """Conversions to add (0 to 1000000); a delta counts at least one view or conversion."""

    @model_validator(mode="after")
    def _something(self) -> VariantDelta:
        if not (self.views or self.conversions):
            raise FieldProblem("Views", "a delta counts at least one view or conversion")
        return self


class ExperimentEvents(Body):
    model_config = example({
        "Deltas": [{"VariantId": "var_8f14e45fceea167a5a36dedd", "Views": 120, "Conversions": 7}],
    })
    deltas: list[VariantDelta] = Field(min_length=1, max_length=MAX_VARIANTS)
    """Per-variant deltas (1 to 10); several for one variant are added together."""
