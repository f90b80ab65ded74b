"""Routing rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import STRING, described, reply_of, shape
from models.pages import Destination, Page

_ID = described(STRING, "The destination's id (`dst_...`).")
_URL = described(STRING, "Where the visitor is sent.")
_CLICKS = described({"type": "integer"}, "Clicks counted (summed from the runtime's flushes).")
DESTINATION_SHAPE = shape(
    Id=_ID, Url=_URL,
    Weight=described({"type": "integer"}, "Its share among the destinations that match, 0 to 100."),
    Rules=described({"type": "object"}, "Which visitors it is for (`Countries`, `Devices`, `Hours`); empty: all."),
    Clicks=_CLICKS)
_PAGE_ID = described(STRING, "The page's id.")
ROUTING_SHAPE = shape(PaginaId=_PAGE_ID, Destinos=described({"type": "array", "items": DESTINATION_SHAPE},
                                                            "Its destinations, in order."))
ROUTING = reply_of(Roteamento=described(ROUTING_SHAPE, "The page's routing."))
CLICKS = reply_of(PaginaId=_PAGE_ID, Total=described({"type": "integer"}, "The clicks of every destination."),
                  Destinos=described({"type": "array", "items": shape(Id=_ID, Url=_URL, Clicks=_CLICKS)},
                                     "Clicks per destination."))
COUNTED = reply_of(Counted=described({"type": "integer"}, "How many of the deltas' targets were counted (unknown "
                                                          "ones are skipped)."))


def destination_view(row: Destination) -> dict:
    return {"Id": row.public_id, "Url": row.url, "Weight": row.weight, "Rules": row.rules, "Clicks": row.clicks}


def routing_view(page: Page, rows: list[Destination]) -> dict:
    return {"PaginaId": page.public_id, "Destinos": [destination_view(row) for row in rows]}


def clicks_view(page: Page, rows: list[Destination]) -> dict:
    return {"PaginaId": page.public_id, "Total": sum(row.clicks for row in rows),
            "Destinos": [{"Id": row.public_id, "Url": row.url, "Clicks": row.clicks} for row in rows]}
