"""Request bodies of the segment routes (the rule tree is checked by app/crm/segment/rules.py)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.http.bodies import SnakeBody

MAX_BODY_BYTES = 64 * 1024


class SegmentWrite(SnakeBody):
    nome: str = Field(min_length=1, max_length=200)
    regras: dict[str, Any]


class SegmentPreview(SnakeBody):
    regras: dict[str, Any]
