"""The e-mail headers Herald writes itself, one list for every system that takes headers from a client:
the platform's sends (/v1/emails/send, the composer), the mail system's POST /v1/emails, the SMTP
server's submission, and the providers that build the message (which refuse them once more).

A client's custom header may set none of these, nor any ``X-Herald-*`` header.
"""

from __future__ import annotations

import re

RESERVED_EMAIL_HEADERS = frozenset({
    "from", "to", "cc", "bcc", "subject", "date", "message-id", "reply-to", "sender", "mime-version", "content-type",
    "content-transfer-encoding", "dkim-signature", "return-path", "received"})

# RFC 5322 2.2: printable US-ASCII but the colon; 76 so the name and its colon fit a folded line.
HEADER_NAME = re.compile(r"^[!-9;-~]{1,76}\Z")
MAX_HEADER_VALUE = 998  # RFC 5322 2.1.1: the longest line
MAX_CUSTOM_HEADERS = 50


def reserved_email_header(name: str) -> bool:
    return name.lower() in RESERVED_EMAIL_HEADERS or name.lower().startswith("x-herald-")
