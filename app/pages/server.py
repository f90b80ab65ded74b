"""Builds the pages app from the shared factory: health and meta (readiness per spec section B)."""

from __future__ import annotations

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from herald.systems import PAGES


def build() -> Sanic:
    return build_app(PAGES, [], readiness=health.strict())
