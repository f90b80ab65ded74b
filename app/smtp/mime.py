"""Reading a message with the standard library (``email``, policy.default): what submission and
receiving need of it, never raising on a malformed part."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage


def parse(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)  # type: ignore[return-value]


def body_of(message: EmailMessage, kind: str) -> str | None:
    """The message's ``text/<kind>`` body, or None (none, or one that cannot be decoded)."""
    try:
        part = message.get_body((kind,))
        return part.get_content() if part is not None else None
    except (LookupError, ValueError, AttributeError):
        return None
