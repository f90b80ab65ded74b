"""Pages: pages and their versions, forms, redirects, media, custom domains, experiments (issue 19).

Cut like every system (docs/architecture.md): one folder per noun under ``app/pages/``, each with
its ``schemas``, ``views``, ``service`` and one module per surface; the app is built by
:mod:`app.pages.server`, imported only when an app is wanted. Today only health and meta answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sanic import Sanic


def create_app() -> Sanic:
    """``sanic app.pages:create_app --factory``."""
    from app.pages.server import build

    return build()
