"""The platform system: the public API (/v1), its gate, and the callbacks of providers.

Cut by noun (``message/``, ``device/``, ``webhook/``, ``request_log/``, ``account/``, ``sender/``,
``api_key/``, ``tenant/``, ``domain/``, ``receipt/``, ``usage/``), each with its ``schemas``,
``views``, ``service`` and one module per surface (``v1.py``, ``callbacks.py``); the app itself is
built by :mod:`app.platform.server`, imported only when an app is wanted: importing a service never
imports Sanic's app or a blueprint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sanic import Sanic


def create_app() -> Sanic:
    """``sanic app.platform:create_app --factory``."""
    from app.platform.server import build

    return build()
