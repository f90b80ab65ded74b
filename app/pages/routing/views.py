"""Routing rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import STRING, reply_of, shape
from models.pages import Destination, Page

DESTINATION_SHAPE = shape(Id=STRING, Url=STRING, Weight={"type": "integer"}, Rules={"type": "object"},
                          Clicks={"type": "integer"})
ROUTING_SHAPE = shape(PaginaId=STRING, Destinos={"type": "array", "items": DESTINATION_SHAPE})
ROUTING = reply_of(Roteamento=ROUTING_SHAPE)
CLICKS = reply_of(PaginaId=STRING, Total={"type": "integer"},
                  Destinos={"type": "array", "items": shape(Id=STRING, Url=STRING, Clicks={"type": "integer"})})
COUNTED = reply_of(Counted={"type": "integer"})


def destination_view(row: Destination) -> dict:
    return {"Id": row.public_id, "Url": row.url, "Weight": row.weight, "Rules": row.rules, "Clicks": row.clicks}


def routing_view(page: Page, rows: list[Destination]) -> dict:
    return {"PaginaId": page.public_id, "Destinos": [destination_view(row) for row in rows]}


def clicks_view(page: Page, rows: list[Destination]) -> dict:
    return {"PaginaId": page.public_id, "Total": sum(row.clicks for row in rows),
            "Destinos": [{"Id": row.public_id, "Url": row.url, "Clicks": row.clicks} for row in rows]}
