"""Request bodies of the send routes, and how each becomes one draft message per recipient."""

from __future__ import annotations

import re
from email.utils import parseaddr
from typing import Annotated, Any

from pydantic import AfterValidator, Field, model_validator

from app.http.bodies import Body

_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
                    r"[A-Za-z]{2,63}$")
_E164 = re.compile(r"^\+[1-9][0-9]{1,14}$")
IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def _email(value: str) -> str:
    if len(value) > 254 or not _EMAIL.match(value):
        raise ValueError("not a valid e-mail address")
    return value


def _source(value: str) -> str:
    name, address = parseaddr(value)
    if not address or not _EMAIL.match(address):
        raise ValueError("not a valid sender address")
    return value


def _e164(value: str) -> str:
    if not _E164.match(value):
        raise ValueError("must be an E.164 number such as +14155550123")
    return value


def _idempotency_key(value: str) -> str:
    if not IDEMPOTENCY_KEY.match(value):
        raise ValueError("must be 1 to 128 characters of A-Z a-z 0-9 . _ : -")
    return value


EmailAddress = Annotated[str, AfterValidator(_email)]
Phone = Annotated[str, AfterValidator(_e164)]
IdempotencyKey = Annotated[str, AfterValidator(_idempotency_key)]
Tags = dict[str, Annotated[str, Field(max_length=256)]]


def sender_address(source: str) -> str:
    return parseaddr(source)[1].lower()


# --- e-mail -----------------------------------------------------------------------------------

class Content(Body):
    data: str
    charset: str | None = None


class EmailBodyParts(Body):
    text: Content | None = None
    html: Content | None = None


class EmailMessage(Body):
    subject: Content
    body: EmailBodyParts

    @model_validator(mode="after")
    def needs_a_body(self) -> "EmailMessage":
        if self.body.text is None and self.body.html is None:
            raise ValueError("Message.Body needs Text or Html")
        return self


class Destination(Body):
    to_addresses: Annotated[list[EmailAddress], Field(min_length=1, max_length=50)]
    cc_addresses: Annotated[list[EmailAddress], Field(max_length=50)] = []
    bcc_addresses: Annotated[list[EmailAddress], Field(max_length=50)] = []


class EmailSend(Body):
    source: Annotated[str, AfterValidator(_source)]
    destination: Destination
    message: EmailMessage
    reply_to_addresses: Annotated[list[EmailAddress], Field(max_length=10)] | None = None
    headers: dict[str, str] | None = None
    idempotency_key: IdempotencyKey | None = None
    tags: Tags | None = None

    def recipients(self) -> list[tuple[str, str]]:
        """(address, role) per recipient; an address listed twice is sent once."""
        seen: set[str] = set()
        out = []
        for role, addresses in (("to", self.destination.to_addresses), ("cc", self.destination.cc_addresses),
                                ("bcc", self.destination.bcc_addresses)):
            for address in addresses:
                if address.lower() not in seen:
                    seen.add(address.lower())
                    out.append((address, role))
        return out

    def content(self) -> dict[str, Any]:
        parts = self.message.body
        content: dict[str, Any] = {
            "Text": parts.text.data if parts.text else None,
            "Html": parts.html.data if parts.html else None,
            "Charset": self.message.subject.charset,
            "To": list(self.destination.to_addresses),
            "Cc": list(self.destination.cc_addresses),
        }
        if self.reply_to_addresses:
            content["ReplyTo"] = list(self.reply_to_addresses)
        if self.headers:
            content["Headers"] = dict(self.headers)
        return content


class EmailBatch(Body):
    # Items are validated one by one (a bad item never fails the others), so they stay raw here.
    messages: Annotated[list[Any], Field(min_length=1, max_length=500)]


# --- SMS, push, WhatsApp --------------------------------------------------------------------------

class SmsSend(Body):
    to: Annotated[list[Phone], Field(min_length=1, max_length=100)]
    body: Annotated[str, Field(min_length=1, max_length=1600)]
    from_: Phone | None = Field(default=None, validation_alias="From")
    idempotency_key: IdempotencyKey | None = None
    tags: Tags | None = None


class Notification(Body):
    title: Annotated[str, Field(min_length=1, max_length=512)]
    body: Annotated[str, Field(min_length=1, max_length=4096)]


class PushSend(Body):
    notification: Notification
    device_tokens: Annotated[list[Annotated[str, Field(min_length=1, max_length=4096)]],
                             Field(min_length=1, max_length=500)]
    data: dict[str, Any] | None = None
    idempotency_key: IdempotencyKey | None = None
    tags: Tags | None = None


class WhatsappSend(Body):
    to: Annotated[list[Phone], Field(min_length=1, max_length=100)]
    body: Annotated[str, Field(min_length=1, max_length=4096)] | None = None
    template: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    variables: dict[str, str] | None = None
    idempotency_key: IdempotencyKey | None = None
    tags: Tags | None = None

    @model_validator(mode="after")
    def body_or_template(self) -> "WhatsappSend":
        if (self.body is None) == (self.template is None):
            raise ValueError("exactly one of Body or Template is required")
        if self.variables is not None and self.template is None:
            raise ValueError("Variables go with Template")
        return self
