"""What the e-mail relays' HTTP APIs (SendGrid, Resend) take from an :class:`Outgoing`, checked the
way the SMTP provider checks it (providers/smtp.py): addresses parsed and written again from their
parts, header names and values on one line, Herald's own headers refused, files base64-encoded.

A relay delivers to the recipients it is given, so each message goes to its one recipient (Herald
makes one message per recipient); the request's other To and Cc addresses are not shown to it.
"""

from __future__ import annotations

import base64
from typing import Any

from providers.base import Outgoing
from providers.errors import PermanentProviderError
from providers.relay_mail import headers_of
from providers.smtp import address


def _one_line(what: str, value: str) -> str:
    if not isinstance(value, str) or any(character in value for character in "\r\n\0"):
        raise PermanentProviderError(f"{what} contains a line break or NUL")
    return value


def mailbox(what: str, text: str) -> tuple[str, str]:
    """(address, display name) of exactly one valid address."""
    found = address(what, text)
    return found.addr_spec, found.display_name or ""


def formatted(what: str, text: str) -> str:
    """``Name <address>`` (quoted or encoded by the email package) or the bare address."""
    return str(address(what, text))


def headers(message: Outgoing) -> dict[str, str]:
    """The request's custom headers, checked, and Herald's message id (kept by the relay):
    :func:`providers.relay_mail.headers_of`, as a mapping."""
    return dict(headers_of(message))


def bodies(message: Outgoing) -> tuple[str | None, str | None]:
    content = message.content or {}
    text, html = content.get("Text"), content.get("Html")
    if text is None and html is None:
        html = ""
    return text, html


def files(message: Outgoing) -> list[dict[str, Any]]:
    """The message's files (``Outgoing.attachments``, when delivery gives them) as name, type and
    base64 content."""
    return [{"filename": _one_line("an attachment's name", item.filename),
             "type": _one_line("an attachment's type", item.content_type),
             "content": base64.b64encode(item.data).decode()}
            for item in message.attachments]
