"""What the HTTP e-mail relays share: the request's own headers, checked as SMTP checks them.

A header the request set (``content["Headers"]``) goes to the relay as given, except the ones
Herald writes itself (models/platform/message.py), refused at accept and again here, and any name
or value that could split a header. ``X-Herald-Message-Id`` names the message, as over SMTP.
"""

from __future__ import annotations

from kit.email_headers import reserved_email_header
from providers.base import Outgoing
from providers.errors import PermanentProviderError
from providers.smtp import HEADER_NAME

_LINE_ENDERS = ("\r", "\n", "\0")


def headers_of(message: Outgoing) -> list[tuple[str, str]]:
    out = [("X-Herald-Message-Id", message.message_id)]
    for name, value in ((message.content or {}).get("Headers") or {}).items():
        if not isinstance(name, str) or not HEADER_NAME.match(name):
            raise PermanentProviderError(f"header name {name!r} is not a valid header field name")
        if reserved_email_header(name):
            raise PermanentProviderError(f"header {name!r} cannot be set by a request")
        if not isinstance(value, str) or any(character in value for character in _LINE_ENDERS):
            raise PermanentProviderError(f"header {name!r} contains a line break or NUL")
        out.append((name, value))
    return out
