"""The publishing runtime: published pages, forms and leads, the pixel, collection, analytics (issue 20).

Cut like every system (docs/architecture.md): one folder per noun under ``app/runtime/``, each with
its ``schemas``, ``views``, ``service`` and one module per surface; the app is built by
:mod:`app.runtime.server`, imported only when an app is wanted. Today only health and meta answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sanic import Sanic


def create_app() -> Sanic:
    """``sanic app.runtime:create_app --factory``."""
    from app.runtime.server import build

    return build()
