"""The console: the web interface in which people use Herald (docs/console.md).

Cut like every system (docs/architecture.md): one folder per noun under ``app/console/`` (``signin``,
``signup``, ``verification``, ``password``, ``account``, ``team``, ``api_key``, ``profile``), each with
its routes and its templates; the shared pieces at the top (``templating``, ``cookies``, ``guard``,
``upstream``, ``gate``, ``forms``). It owns no data: every page reads and writes through the
platform's ``/api`` with the person's session, through the one client between systems.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sanic import Sanic


def create_app() -> Sanic:
    """``sanic app.console:create_app --factory``."""
    from app.console.server import build

    return build()
