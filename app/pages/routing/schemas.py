"""Routing bodies: up to 20 weighted destinations (contract, "Limits"), each optionally limited by
rules on country, device and hour; and the runtime's per-destination click deltas."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from app.http.bodies import Body, FieldProblem, example
from app.pages import validation

MAX_DESTINATIONS = 20


class Hours(Body):
    """UTC hours, ``From`` inclusive and ``To`` exclusive; ``From`` > ``To`` wraps past midnight."""

    from_: int = Field(ge=0, le=23, alias="From")
    """The first UTC hour (0 to 23), included."""
    to: int = Field(ge=0, le=24)
    """The UTC hour it ends at (0 to 24), excluded; lower than `From` wraps past midnight."""


class Rules(Body):
    countries: list[Annotated[str, Field(pattern=r"^[A-Z]{2}$")]] = Field(default=[], max_length=250)
    """The visitors' countries (ISO 3166 alpha-2) it is for."""
    devices: list[Literal["desktop", "mobile", "tablet"]] = Field(default=[], max_length=3)
    """The visitors' devices it is for: `desktop`, `mobile`, `tablet`."""
    hours: Hours | None = None
    """The UTC hours it is for."""


class DestinationIn(Body):
    url: str
    """Where the visitor is sent (each URL once)."""
    weight: int = Field(ge=0, le=100)
    """Its share among the destinations that match, 0 to 100 (the weights sum to 100)."""
    rules: Rules = Rules()
    """Which visitors it is for; without rules, every visitor."""

    _url = field_validator("url")(classmethod(lambda cls, value: validation.web_url(value)))


class RoutingPut(Body):
    model_config = example({
        "Destinations": [{"Url": "https://shop.example.com/a", "Weight": 50},
                         {"Url": "https://shop.example.com/b", "Weight": 50}],
    })
    destinations: list[DestinationIn] = Field(min_length=1, max_length=MAX_DESTINATIONS)
    """The destinations (1 to 20)."""

    def rows(self) -> list[dict]:
        return [{"url": item.url, "weight": item.weight,
                 "rules": item.rules.model_dump(by_alias=True, exclude_none=True)} for item in self.destinations]

    @model_validator(mode="after")
    def _weights(self) -> RoutingPut:
        if sum(item.weight for item in self.destinations) != 100:
            raise FieldProblem("Destinations", "the destinations' weights must sum to 100")
        if len({item.url for item in self.destinations}) != len(self.destinations):
            raise FieldProblem("Destinations", "each destination URL may appear once")
        return self


class ClickDelta(Body):
    destination_id: Annotated[str, Field(min_length=1, max_length=40)]
    """The destination (`dst_...`); one not (or no longer) of the page is skipped."""
    count: int = Field(ge=1, le=1_000_000)
    """Clicks to add (1 to 1000000)."""


class PageClicks(Body):
    deltas: list[ClickDelta] = Field(min_length=1, max_length=MAX_DESTINATIONS)
    """Per-destination deltas (1 to 20); several for one destination are added together."""
