"""Request bodies of the send routes, and how each becomes one draft message per recipient.

Whatever ends up in an e-mail header is checked here, at accept, so that nothing a request
carries can add a header line: ``Source``, ``Subject.Data``, the addresses and the custom
``Headers`` refuse CR, LF and NUL; a custom header needs a valid field name that Herald does not
set itself; a charset must be one Herald can encode with, and the body must fit in it. Patterns
end with ``\\Z``: ``$`` would also match before a final newline.
"""

from __future__ import annotations

import functools
import re
from email.utils import parseaddr
from typing import Annotated, Any

from pydantic import AfterValidator, Field, ValidationInfo, field_validator, model_validator

from app.http.bodies import Body, FieldProblem, example
from app.platform.message.attachments import MAX_ATTACHMENTS, Attachment
from kit.email_headers import (HEADER_NAME, MAX_CUSTOM_HEADERS, MAX_HEADER_VALUE, RESERVED_EMAIL_HEADERS,
                               reserved_email_header)

_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?=.{1,253}\Z)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
                    r"[A-Za-z]{2,63}\Z")
_E164 = re.compile(r"^\+[1-9][0-9]{1,14}\Z")
IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9._:-]{1,128}\Z")
_HEADER_BREAKS = ("\r", "\n", "\0")

# The MIME charsets a message may declare (IANA names, any case): the ones mail clients read and
# Python's codecs write.
CHARSETS = {name.lower(): name for name in (
    "UTF-8", "US-ASCII", "ISO-8859-1", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6",
    "ISO-8859-7", "ISO-8859-8", "ISO-8859-9", "ISO-8859-10", "ISO-8859-13", "ISO-8859-14", "ISO-8859-15",
    "ISO-8859-16", "Windows-1250", "Windows-1251", "Windows-1252", "Windows-1253", "Windows-1254", "Windows-1255",
    "Windows-1256", "Windows-1257", "Windows-1258", "KOI8-R", "KOI8-U", "Shift_JIS", "EUC-JP", "ISO-2022-JP",
    "EUC-KR", "GB2312", "GBK", "GB18030", "Big5")}


def _email(value: str) -> str:
    if len(value) > 254 or not _EMAIL.match(value):
        raise ValueError("not a valid e-mail address")
    return value


def _one_line(value: str) -> str:
    if any(character in value for character in _HEADER_BREAKS):
        raise ValueError("must not contain CR, LF or NUL (it goes into a header)")
    return value


def _charset(value: str) -> str:
    if value.lower() not in CHARSETS:
        raise ValueError(f"unknown charset; use one of {', '.join(sorted(CHARSETS.values()))}")
    return value


def _headers(value: dict[str, str]) -> dict[str, str]:
    for name, text in value.items():
        shown = name.encode("unicode_escape").decode()  # a CR or LF in a name is shown, never written
        if not HEADER_NAME.match(name):
            raise ValueError(f"'{shown}' is not a valid header name (printable ASCII without ':' or spaces)")
        if reserved_email_header(name):
            raise ValueError(f"{name!r} is set by Herald and cannot be given "
                             f"(reserved: {', '.join(sorted(RESERVED_EMAIL_HEADERS))}, X-Herald-*)")
        if any(character in text for character in _HEADER_BREAKS):
            raise ValueError(f"the value of {name!r} must not contain CR, LF or NUL")
        if len(text) > MAX_HEADER_VALUE:
            raise ValueError(f"the value of {name!r} is longer than {MAX_HEADER_VALUE} characters")
    return value


# A send's Source is parsed twice (validated, then its domain checked), and an account sends from
# the same few: the standard library's parser is pure Python, so its answers are kept.
_parsed_address = functools.lru_cache(maxsize=1024)(parseaddr)


def _source(value: str) -> str:
    name, address = _parsed_address(value)
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
HeaderText = Annotated[str, AfterValidator(_one_line)]
Charset = Annotated[str, AfterValidator(_charset)]
Phone = Annotated[str, AfterValidator(_e164)]
IdempotencyKey = Annotated[str, AfterValidator(_idempotency_key)]
Tags = dict[str, Annotated[str, Field(max_length=256)]]
CustomHeaders = Annotated[dict[str, str], Field(max_length=MAX_CUSTOM_HEADERS), AfterValidator(_headers)]
ReplyTo = Annotated[list[EmailAddress], Field(max_length=10)]


def sender_address(source: str) -> str:
    return _parsed_address(source)[1].lower()


# --- e-mail -----------------------------------------------------------------------------------

class Content(Body):
    data: str
    """The text."""
    charset: Charset | None = None
    """Its MIME charset (an IANA name such as `UTF-8`, any case); the Subject's is the message's."""


class Subject(Content):
    data: HeaderText
    """The subject line: one line (no CR, LF or NUL)."""


class EmailBodyParts(Body):
    text: Content | None = None
    """The plain-text part."""
    html: Content | None = None
    """The HTML part."""


class EmailMessage(Body):
    subject: Subject
    """The subject."""
    body: EmailBodyParts
    """The body: `Text`, `Html` or both (at least one)."""

    @model_validator(mode="after")
    def needs_a_body(self) -> "EmailMessage":
        if self.body.text is None and self.body.html is None:
            raise FieldProblem("Body", "needs Text or Html")
        return self

    @field_validator("body")
    @classmethod
    def fits_the_charset(cls, body: EmailBodyParts, info: ValidationInfo) -> EmailBodyParts:
        # Delivery writes the body parts in Subject.Charset: text it cannot encode fails here, not there.
        subject = info.data.get("subject")
        charset = subject.charset if subject is not None else None
        for name, part in (("Text", body.text), ("Html", body.html)):
            if charset is not None and part is not None:
                try:
                    part.data.encode(CHARSETS[charset.lower()])
                except UnicodeEncodeError:
                    raise ValueError(f"the {name} part cannot be encoded in {charset} (Subject.Charset)") from None
        return body


class Destination(Body):
    to_addresses: Annotated[list[EmailAddress], Field(min_length=1, max_length=50)]
    """The recipients (1 to 50 addresses)."""
    cc_addresses: Annotated[list[EmailAddress], Field(max_length=50)] = Field(default_factory=list)
    """Copied recipients (at most 50)."""
    bcc_addresses: Annotated[list[EmailAddress], Field(max_length=50)] = Field(default_factory=list)
    """Blind-copied recipients (at most 50); not shown to the others."""


class EmailSend(Body):
    model_config = example({
        "Source": "Acme <hello@sandbox.herald.test>",
        "Destination": {"ToAddresses": ["ana@example.com"]},
        "Message": {"Subject": {"Data": "Your order has shipped"},
                    "Body": {"Text": {"Data": "It is on its way."}, "Html": {"Data": "<p>It is on its way.</p>"}}},
        "Tags": {"order": "1042"},
    })
    source: Annotated[str, AfterValidator(_one_line), AfterValidator(_source)]
    """The sender: an address of the account's verified domains (the sandbox's with a test key), named or not."""
    destination: Destination
    """Who receives it. An address listed twice is sent once."""
    # Either Message, or Template (a slug of the account's e-mail templates) with Variables.
    message: EmailMessage | None = None
    """The subject and body; exactly one of `Message` or `Template`."""
    template: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    """The slug of one of the account's e-mail templates, instead of `Message`."""
    variables: dict[str, Any] | None = None
    """The template's variables (with `Template` only)."""
    reply_to_addresses: ReplyTo | None = None
    """Where replies go (at most 10 addresses)."""
    headers: CustomHeaders | None = None
    """Custom header fields (at most 50); the ones Herald sets (From, Subject ...) and `X-Herald-*` are refused."""
    # base64 files, at most 10 MB decoded per message (app/platform/message/attachments.py)
    attachments: Annotated[list[Attachment], Field(max_length=MAX_ATTACHMENTS)] | None = None
    """Files, base64, at most 10 MB decoded per message."""
    # RFC 3339, at most 72 hours ahead: delivered from then on (POST /v1/emails/{id}/cancel before)
    scheduled_at: Annotated[str, Field(max_length=40)] | None = None
    """When to deliver it (RFC 3339, at most 72 hours ahead); `POST /v1/emails/{id}/cancel` before then cancels it."""
    idempotency_key: IdempotencyKey | None = None
    """As the `Idempotency-Key` header (1 to 128 of A-Z a-z 0-9 . _ : -): a retry answers the first send."""
    tags: Tags | None = None
    """Your labels (name to value, values at most 256 characters), returned with the message and its events."""

    @model_validator(mode="after")
    def message_or_template(self) -> "EmailSend":
        if (self.message is None) == (self.template is None):
            raise FieldProblem("Message", "exactly one of Message or Template is required")
        if self.variables is not None and self.template is None:
            raise FieldProblem("Variables", "Variables go with Template")
        return self

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

    def content(self, text: str | None = None, html: str | None = None) -> dict[str, Any]:
        """The stored content: the Message's parts, or (a template's) ``text`` and ``html``."""
        parts = self.message.body if self.message is not None else None
        content: dict[str, Any] = {
            "Text": (parts.text.data if parts.text else None) if parts is not None else text,
            "Html": (parts.html.data if parts.html else None) if parts is not None else html,
            "Charset": self.message.subject.charset if self.message is not None else None,
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
    """The e-mails (1 to 500), each the body of `POST /v1/emails/send`; each is accepted or refused on its own."""


# --- SMS, push, WhatsApp --------------------------------------------------------------------------

class SmsSend(Body):
    model_config = example({"To": ["+14155550123"], "Body": "Your code is 4242", "Tags": {"flow": "login"}})
    to: Annotated[list[Phone], Field(min_length=1, max_length=100)]
    """The recipients' numbers in E.164 (`+14155550123`), 1 to 100."""
    # Either Body, or Template (a slug of the account's SMS templates) with Variables.
    body: Annotated[str, Field(min_length=1, max_length=1600)] | None = None
    """The text (1 to 1600 characters); exactly one of `Body` or `Template`."""
    template: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    """The slug of one of the account's SMS templates, instead of `Body`."""
    variables: dict[str, Any] | None = None
    """The template's variables (with `Template` only)."""
    from_: Phone | None = Field(default=None, validation_alias="From")
    """The sending number, in E.164 (optional)."""
    idempotency_key: IdempotencyKey | None = None
    """As the `Idempotency-Key` header: a retry with the same key and body answers the first send."""
    tags: Tags | None = None
    """Your labels (name to value), returned with the message and its events."""

    @model_validator(mode="after")
    def body_or_template(self) -> "SmsSend":
        if (self.body is None) == (self.template is None):
            raise FieldProblem("Body", "exactly one of Body or Template is required")
        if self.variables is not None and self.template is None:
            raise FieldProblem("Variables", "Variables go with Template")
        return self


class Notification(Body):
    title: Annotated[str, Field(min_length=1, max_length=512)]
    """The notification's title (1 to 512 characters)."""
    body: Annotated[str, Field(min_length=1, max_length=4096)]
    """The notification's text (1 to 4096 characters)."""


class PushSend(Body):
    model_config = example({
        "Notification": {"Title": "Order shipped", "Body": "It is on its way."},
        "DeviceTokens": ["fcm-device-token-1"],
        "Data": {"order": "1042"},
    })
    notification: Notification
    """What the device shows."""
    # 512: a token is a message's recipient, a 512-character column (a longer one was a 500).
    device_tokens: Annotated[list[Annotated[str, Field(min_length=1, max_length=512)]],
                             Field(min_length=1, max_length=500)]
    """The devices' push tokens (1 to 500), as registered with `POST /v1/push/devices` or by the apps."""
    data: dict[str, Any] | None = None
    """A JSON object handed to the app with the notification."""
    idempotency_key: IdempotencyKey | None = None
    """As the `Idempotency-Key` header: a retry with the same key and body answers the first send."""
    tags: Tags | None = None
    """Your labels (name to value), returned with the message and its events."""


class WhatsappSend(Body):
    model_config = example({"To": ["+14155550123"], "Body": "Your order has shipped."})
    to: Annotated[list[Phone], Field(min_length=1, max_length=100)]
    """The recipients' numbers in E.164 (`+14155550123`), 1 to 100."""
    body: Annotated[str, Field(min_length=1, max_length=4096)] | None = None
    """The text (1 to 4096 characters); exactly one of `Body` or `Template`."""
    template: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    """The slug of one of the account's approved WhatsApp templates, instead of `Body`."""
    variables: dict[str, str] | None = None
    """The template's variables (with `Template` only)."""
    idempotency_key: IdempotencyKey | None = None
    """As the `Idempotency-Key` header: a retry with the same key and body answers the first send."""
    tags: Tags | None = None
    """Your labels (name to value), returned with the message and its events."""

    @model_validator(mode="after")
    def body_or_template(self) -> "WhatsappSend":
        if (self.body is None) == (self.template is None):
            raise FieldProblem("Body", "exactly one of Body or Template is required")
        if self.variables is not None and self.template is None:
            raise FieldProblem("Variables", "Variables go with Template")
        return self


# --- the dashboard's composer (POST /api/messages/send) -------------------------------------------

class ComposeSend(Body):
    """Types only: what a channel needs (recipients' form, a body or a template) is checked by
    app/platform/message/compose.py and answered 422, as the contract asks of the composer."""
    model_config = example({"Channel": "sms", "Recipients": ["+14155550123"], "Text": "Your order has shipped."})

    channel: str
    """The channel: email, sms, push or whatsapp (another value is 422)."""
    recipients: Annotated[list[Annotated[str, Field(max_length=2048)]], Field(max_length=500)]
    """One message each: addresses (email, 1 to 50), E.164 numbers (sms, whatsapp: 1 to 100) or device tokens (push)."""
    from_: str | None = Field(default=None, validation_alias="From")
    """The sender: for email (required) an address of a verified domain; for sms an optional E.164 number."""
    subject: str | None = None
    """The e-mail's subject, or the push notification's title."""
    text: str | None = None
    """The plain-text body (email), the message (sms and whatsapp) or the push notification's body."""
    html: str | None = None
    """The e-mail's HTML body."""
    template: str | None = None
    """The slug of one of the account's templates of this channel, instead of Subject, Text and Html."""
    variables: dict[str, Any] | None = None
    """The template's variables (with Template only)."""
    data: dict[str, Any] | None = None
    """Push only: a JSON object handed to the app with the notification."""
    tags: Tags | None = None
    """Your labels (name to value), returned with the message and its events."""
    scheduled_at: str | None = None
    """When to deliver it (RFC 3339, at most 72 hours ahead); the message waits queued until then."""
    # E-mail only (the mail system's POST /v1/emails sends through here): as on /v1/emails/send.
    reply_to: ReplyTo | None = None
    """E-mail only: where replies go (at most 10 addresses)."""
    headers: CustomHeaders | None = None
    """E-mail only: custom header fields (at most 50); the ones Herald sets and `X-Herald-*` are refused."""
    attachments: Annotated[list[Attachment], Field(max_length=MAX_ATTACHMENTS)] | None = None
    """E-mail only: files, base64, at most 10 MB decoded per message."""
    idempotency_key: IdempotencyKey | None = None
    """1 to 128 of A-Z a-z 0-9 . _ : -: a repeat with the same key and body answers the first send."""
