"""Request bodies of the segment routes (the rule tree is checked by app/crm/segment/rules.py)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.http.bodies import SnakeBody, example

MAX_BODY_BYTES = 64 * 1024


class SegmentWrite(SnakeBody):
    model_config = example({
        "nome": "Subscribed buyers",
        "regras": {"todas": [{"campo": "inscrito", "op": "igual", "valor": True},
                             {"evento": "order.paid", "dias": 30}]},
    })
    nome: str = Field(min_length=1, max_length=200)
    """The segment's name (1 to 200 characters)."""
    regras: dict[str, Any]
    """The rule tree that selects its contacts (docs/crm.md, "Segments")."""


class SegmentPreview(SnakeBody):
    model_config = example({
        "regras": {"todas": [{"campo": "inscrito", "op": "igual", "valor": True},
                             {"evento": "order.paid", "dias": 30}]},
    })
    regras: dict[str, Any]
    """The rule tree to preview: how many contacts it selects, and the newest ten."""
