"""The mail API (the contract's ``{mail_url}``): organizations, sending domains, mailboxes and
``POST /v1/emails`` (docs/mail.md).

Cut like every system (docs/architecture.md): one folder per noun under ``app/mail/``, each with its
``schemas``, ``views``, ``service`` and one module per surface; the app is built by
:mod:`app.mail.server`, imported only when an app is wanted. Domains are the platform's and sends go
through the platform's accept path, both over HTTP (app/mail/platform.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sanic import Sanic


def create_app() -> Sanic:
    """``sanic app.mail:create_app --factory``."""
    from app.mail.server import build

    return build()
