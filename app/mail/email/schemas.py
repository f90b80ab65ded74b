"""The body of ``POST /v1/emails``: the contract's lowercase fields (``from``, ``to[]``, ``subject``,
``text``/``html``) plus ``cc``, ``bcc``, ``reply_to``, ``headers``, ``attachments``, ``scheduled_at``,
``tags`` and ``idempotency_key``, as Resend and Postmark name them. Strict: an unknown field is a 400
naming it. What goes into a header refuses CR, LF and NUL here, before anything is sent; a header
Herald writes itself (From, To, DKIM-Signature, Return-Path ...) cannot be given. The platform checks
all of it again (the attachments' types and sizes too: 422 and 413 as it answers them)."""

from __future__ import annotations

import re
from email.utils import parseaddr
from typing import Annotated

from pydantic import AfterValidator, Field, model_validator

from app.http.bodies import FieldProblem, SnakeBody, example
from app.mail.mailbox.schemas import ADDRESS
from kit.email_headers import HEADER_NAME, MAX_CUSTOM_HEADERS, MAX_HEADER_VALUE, reserved_email_header

IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9._:-]{1,128}\Z")
MAX_RECIPIENTS = 50  # to, cc and bcc together: the platform's composer takes at most 50 e-mail recipients
_BREAKS = ("\r", "\n", "\0")


def _recipient(value: str) -> str:
    if len(value) > 254 or not ADDRESS.match(value):
        raise ValueError("not a valid e-mail address")
    return value


def _one_line(value: str) -> str:
    if any(character in value for character in _BREAKS):
        raise ValueError("must not contain CR, LF or NUL (it goes into a header)")
    return value


def _sender(value: str) -> str:
    _one_line(value)
    name, address = parseaddr(value)
    if not address or not ADDRESS.match(address):
        raise ValueError("not a valid sender address ('hello@example.com' or 'Acme <hello@example.com>')")
    return value


def _headers(value: dict[str, str]) -> dict[str, str]:
    for name, text in value.items():
        shown = name.encode("unicode_escape").decode()
        if not HEADER_NAME.match(name):
            raise ValueError(f"'{shown}' is not a valid header name (printable ASCII without ':' or spaces)")
        if reserved_email_header(name):
            raise ValueError(f"{name!r} is set by Herald and cannot be given")
        _one_line(text)
        if len(text) > MAX_HEADER_VALUE:
            raise ValueError(f"the value of {name!r} is longer than {MAX_HEADER_VALUE} characters")
    return value


def _idempotency_key(value: str) -> str:
    if not IDEMPOTENCY_KEY.match(value):
        raise ValueError("must be 1 to 128 characters of A-Z a-z 0-9 . _ : -")
    return value


Recipient = Annotated[str, AfterValidator(_recipient)]


class Attachment(SnakeBody):
    """A file: ``content`` base64, at most 10 MB decoded per message (all files together)."""
    filename: Annotated[str, Field(min_length=1, max_length=255), AfterValidator(_one_line)]
    """The file's name as recipients see it; types mail clients block (`exe`, `bat` ...) are a 422."""
    content: Annotated[str, Field(min_length=1, max_length=15 * 1024 * 1024)]
    """The file, base64 (10 MB decoded per message, all files together)."""
    content_type: Annotated[str, Field(min_length=3, max_length=255)] | None = None
    """Its MIME type (`application/pdf`)."""
Recipients = Annotated[list[Recipient], Field(max_length=MAX_RECIPIENTS)]


class EmailCreate(SnakeBody):
    model_config = example({"from": "Acme <hello@sandbox.herald.test>", "to": ["ana@example.com"],
                            "subject": "Your order has shipped", "text": "It is on its way.",
                            "html": "<p>It is on its way.</p>"})

    from_: Annotated[str, Field(max_length=512, alias="from"), AfterValidator(_sender)]
    """The sender: a mailbox of the account (of the key's mode), with a display name or not; else 422."""
    to: Recipient | Annotated[list[Recipient], Field(min_length=1, max_length=MAX_RECIPIENTS)]
    """The recipient, or a list of them; each gets a message of their own."""
    cc: Recipients = Field(default_factory=list)
    """Copied recipients."""
    bcc: Recipients = Field(default_factory=list)
    """Blind-copied recipients."""
    subject: Annotated[str, Field(min_length=1, max_length=998), AfterValidator(_one_line)]
    """The subject line (one line, at most 998 characters)."""
    text: Annotated[str, Field(min_length=1)] | None = None
    """The plain-text body; `text` or `html` (or both) is required."""
    html: Annotated[str, Field(min_length=1)] | None = None
    """The HTML body."""
    reply_to: Recipient | Annotated[list[Recipient], Field(max_length=10)] | None = None
    """Where replies go: one address or a list (at most 10)."""
    headers: Annotated[dict[str, str], Field(max_length=MAX_CUSTOM_HEADERS), AfterValidator(_headers)] | None = None
    """Custom header fields (at most 50); one Herald writes itself (`From`, `Subject`, `X-Herald-*` ...) is a 400."""
    attachments: Annotated[list[Attachment], Field(max_length=20)] | None = None
    """Files (at most 20), 10 MB decoded per message in all."""
    # RFC 3339, at most 72 hours ahead (the platform checks it): POST /v1/emails/{id}/cancel before then
    scheduled_at: Annotated[str, Field(max_length=40)] | None = None
    """When to deliver it (RFC 3339 with its offset, at most 72 hours ahead)."""
    tags: dict[str, Annotated[str, Field(max_length=256)]] | None = None
    """Your labels (name to value, values at most 256 characters)."""
    idempotency_key: Annotated[str, AfterValidator(_idempotency_key)] | None = None
    """As the `Idempotency-Key` header: the same key again answers the first messages, nothing sent twice."""

    @model_validator(mode="after")
    def needs_a_body(self) -> "EmailCreate":
        if self.text is None and self.html is None:
            raise FieldProblem("text", "text or html is required")
        if len(self.recipients()) > MAX_RECIPIENTS:
            raise FieldProblem("to", f"at most {MAX_RECIPIENTS} recipients in to, cc and bcc together")
        return self

    def recipients(self) -> list[str]:
        """Every recipient once (to, then cc, then bcc): each gets a message of their own."""
        listed = [self.to] if isinstance(self.to, str) else list(self.to)
        seen: dict[str, str] = {}
        for address in listed + list(self.cc) + list(self.bcc):
            seen.setdefault(address.lower(), address)
        return list(seen.values())
