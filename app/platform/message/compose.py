"""The dashboard's composer: one PascalCase body for every channel, turned into the drafts the
/v1 accept path takes (app/platform/message/service.py: the same rules, idempotency, outbox and
quota).

    {Channel, Recipients, From?, Subject?, Text?, Html?, Template?, Variables?, Data?, Tags?,
     ScheduledAt?, ReplyTo?, Headers?, Attachments?, IdempotencyKey?}

==========  ==================  ===============================================================
channel     Recipients          content
==========  ==================  ===============================================================
email       addresses (1..50)   ``From`` (a verified domain's address), ``Subject``, ``Text``
                                and/or ``Html``; each recipient gets their own message and sees
                                only their own address
sms         E.164 (1..100)      ``Text`` (1..1600); optional ``From`` (E.164)
push        device tokens       ``Subject`` (the title) and ``Text`` (the body); optional ``Data``
            (1..500)
whatsapp    E.164 (1..100)      ``Text``, or an approved template
==========  ==================  ===============================================================

``Template`` (a slug of the account's templates of that channel) with ``Variables`` replaces
``Subject``, ``Text`` and ``Html`` (giving both is 422). ``ScheduledAt`` (RFC 3339, at most
MAX_SCHEDULE_HOURS ahead) delays delivery: the message is ``queued`` with that due time.
``ReplyTo``, ``Headers`` and ``Attachments`` are e-mail's, as on /v1/emails/send (the mail system's
``POST /v1/emails`` sends them through the internal send route, which takes this body).

Everything here is a 422 (the contract's composer errors: invalid channel, empty recipient,
missing body); a field of the wrong JSON type or an unknown field stays the 400 of every body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.platform.api_key.principal import Principal
from app.platform.message import attachments, service
from app.platform.message.schemas import ComposeSend, _E164, _EMAIL, _HEADER_BREAKS, _source, sender_address
from app.platform.message.service import Draft
from app.platform.template import service as templates
from kit.timestamps import iso

MAX_RECIPIENTS = {"email": 50, "sms": 100, "push": 500, "whatsapp": 100}
MAX_SCHEDULE_HOURS = 72
SMS_MAX = 1600
_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$")


@dataclass
class Composed:
    channel: str
    drafts: list[Draft]


def _unprocessable(field: str, reason: str, message: str | None = None) -> errors.Unprocessable:
    return errors.Unprocessable(message or f"{field}: {reason}.", details={field: reason})


def scheduled(raw: str | None, now: datetime) -> datetime | None:
    """The time a ``ScheduledAt`` names (None: now or past, send at once), or a 422."""
    if raw is None:
        return None
    if not _MOMENT.match(raw):
        raise _unprocessable("ScheduledAt", "an RFC 3339 time with its offset, e.g. 2026-11-01T09:00:00Z")
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00")).astimezone(timezone.utc)
    except ValueError:  # 2026-02-30, hour 25 ...
        raise _unprocessable("ScheduledAt", "not a valid time") from None
    if moment > now + timedelta(hours=MAX_SCHEDULE_HOURS):
        raise _unprocessable("ScheduledAt", f"at most {MAX_SCHEDULE_HOURS} hours ahead")
    return moment if moment > now else None


def email_extras(reply_to: list[str] | None, headers: dict[str, str] | None, sealed: list[dict[str, Any]],
                 not_before: datetime | None) -> dict[str, Any]:
    """What an e-mail's stored content adds to its parts: ReplyTo, Headers, the sealed Attachments
    and the ScheduledAt its timeline shows (each only when given)."""
    extras: dict[str, Any] = {}
    if reply_to:
        extras["ReplyTo"] = list(reply_to)
    if headers:
        extras["Headers"] = dict(headers)
    if sealed:
        extras["Attachments"] = sealed
    if not_before is not None:
        extras["ScheduledAt"] = iso(not_before)
    return extras


def _recipients(body: ComposeSend) -> list[str]:
    if not body.recipients:
        raise _unprocessable("Recipients", "at least one recipient is required")
    limit = MAX_RECIPIENTS[body.channel]
    if len(body.recipients) > limit:
        raise _unprocessable("Recipients", f"at most {limit} for {body.channel}")
    out: list[str] = []
    seen: set[str] = set()
    for index, value in enumerate(body.recipients):
        field = f"Recipients.{index}"
        if not value.strip():
            raise _unprocessable(field, "empty recipient")
        if body.channel == "email" and (len(value) > 254 or not _EMAIL.match(value)):
            raise _unprocessable(field, "not a valid e-mail address")
        if body.channel in ("sms", "whatsapp") and not _E164.match(value):
            raise _unprocessable(field, "must be an E.164 number such as +14155550123")
        if body.channel == "push" and len(value) > 512:
            raise _unprocessable(field, "a device token is at most 512 characters")
        if value.lower() not in seen:
            seen.add(value.lower())
            out.append(value)
    return out


async def _content(conn: BaseDBAsyncClient, principal: Principal, body: ComposeSend) -> dict[str, str | None]:
    given = {"Subject": body.subject, "Text": body.text, "Html": body.html}
    if body.template is not None:
        if any(value is not None for value in given.values()):
            raise _unprocessable("Template", "give a Template or Subject/Text/Html, not both")
        found = await templates.rendered(conn, principal.tenant_pk, body.template, body.channel,
                                         body.variables or {})
        return {"Subject": found.subject, "Text": found.text, "Html": found.html}
    if body.variables is not None:
        raise _unprocessable("Variables", "Variables go with Template")
    return given


def _require(content: dict[str, str | None], *parts: str, channel: str) -> None:
    missing = [part for part in parts if not content.get(part)]
    if missing:
        raise errors.Unprocessable(f"A {channel} message needs {' and '.join(missing)} (or a Template).",
                                   details={part: "required" for part in missing})


async def compose(conn: BaseDBAsyncClient, principal: Principal, body: ComposeSend,
                  now: datetime | None = None) -> Composed:
    """The drafts of a composer body (one per recipient), or a 422 naming what is wrong."""
    now = now or datetime.now(timezone.utc)
    if body.channel not in MAX_RECIPIENTS:
        raise _unprocessable("Channel", f"one of {', '.join(MAX_RECIPIENTS)}", f"Unknown channel {body.channel!r}.")
    recipients = _recipients(body)
    not_before = scheduled(body.scheduled_at, now)
    if body.data is not None and body.channel != "push":
        raise _unprocessable("Data", "push only")
    for field, value in (("ReplyTo", body.reply_to), ("Headers", body.headers), ("Attachments", body.attachments)):
        if value is not None and body.channel != "email":
            raise _unprocessable(field, "e-mail only")
    content = await _content(conn, principal, body)
    channel, template = body.channel, body.template

    def draft(recipient: str, role: str, sender: str | None, subject: str | None, payload: dict[str, Any]) -> Draft:
        return Draft(recipient, role, sender, subject, payload, body.tags, template=template, not_before=not_before)

    if channel == "email":
        if not body.from_:
            raise _unprocessable("From", "required: an address on a verified domain of the account")
        try:
            _source(body.from_)
        except ValueError:
            raise _unprocessable("From", "not a valid sender address") from None
        if not (content["Text"] or content["Html"]):
            raise errors.Unprocessable("An e-mail needs Text or Html (or a Template).",
                                       details={"Text": "required"})
        _require(content, "Subject", channel=channel)
        for field, value in (("From", body.from_), ("Subject", content["Subject"])):
            if any(character in (value or "") for character in _HEADER_BREAKS):
                raise _unprocessable(field, "must not contain CR, LF or NUL (it goes into a header)")
        await service.check_sender(conn, principal, sender_address(body.from_))
        extras = email_extras(body.reply_to, body.headers, attachments.sealed(body.attachments), not_before)
        drafts = [draft(address, "to", body.from_, content["Subject"],
                        {"Text": content["Text"], "Html": content["Html"], "Charset": None, "To": [address], "Cc": [],
                         **extras})
                  for address in recipients]
        attachments.check_stored(attachments.stored_bytes(extras, len(drafts)))
    elif channel == "sms":
        _require(content, "Text", channel=channel)
        if len(content["Text"] or "") > SMS_MAX:
            raise _unprocessable("Text", f"at most {SMS_MAX} characters")
        if body.from_ is not None and not _E164.match(body.from_):
            raise _unprocessable("From", "must be an E.164 number such as +14155550123")
        drafts = [draft(number, "to", body.from_, None, {"Body": content["Text"]}) for number in recipients]
    elif channel == "push":
        _require(content, "Subject", "Text", channel=channel)
        payload = {"Title": content["Subject"], "Body": content["Text"], "Data": body.data}
        drafts = [draft(token, "device", None, content["Subject"], payload) for token in recipients]
    else:
        _require(content, "Text", channel=channel)
        payload: dict[str, Any] = {"Body": content["Text"]}
        if template is not None:
            payload.update({"Template": template, "Variables": body.variables or {}})
        drafts = [draft(number, "to", None, None, payload) for number in recipients]
    return Composed(channel, drafts)
