"""The CRM: contacts and lists, consent, retention, segments, journeys, alerts, destinations (issue 17).

Cut like every system (docs/architecture.md): one folder per noun under ``app/crm/``, each with
its ``schemas``, ``views``, ``service`` and one module per surface; the app is built by
:mod:`app.crm.server`, imported only when an app is wanted. docs/crm.md is the reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sanic import Sanic


def create_app() -> Sanic:
    """``sanic app.crm:create_app --factory``."""
    from app.crm.server import build

    return build()
