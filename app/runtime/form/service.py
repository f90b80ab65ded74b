"""Form submissions and leads: validated against the form the pages system holds, spam-guarded,
stored (sealed) with their outbox job to the CRM in one transaction.

The rules:
- the account and the form come from where the submission arrives (the resolved page, the form id
  in the path and its owner, or the API key), never from the body;
- values are checked against the form's fields (required, type, length, pattern, options); a field
  the form does not have is refused; a consent the form requires must be given;
- a field's ``Pattern`` is the tenant's own regular expression run on anonymous input: it runs in
  RE2 (kit/patterns.py, time linear in the input, never a backtracking engine) and only on a
  value already within the field's ``MaxLength`` (:data:`DEFAULT_MAX` without one); a pattern
  stored before pages checked it with RE2 (a backreference, a lookaround) is refused with 422
  naming the field, since it cannot be checked and the value cannot be taken unchecked;
- the honeypot field (``website_url``, hidden from people) filled in means a bot: the answer looks
  like a success and nothing is stored;
- each client address may submit :data:`ADDRESS_LIMIT` times per :data:`ADDRESS_WINDOW` seconds
  across every form (Redis, the shared fixed-window limiter; the address is hashed, never kept):
  429 with Retry-After past it.
"""

from __future__ import annotations

import hashlib
import logging
import re
from datetime import date, datetime, timezone
from typing import Any

from app.http import errors
from app.http.ratelimit import RateLimiter
from kit import patterns
from kit.actors import Actor
from models.outbox import enqueue
from models.runtime.lead import Submission, new_submission_id, seal

HONEYPOT = "website_url"
RESERVED = {"_form", "_variant", "_consent", HONEYPOT}
ADDRESS_LIMIT = 10
ADDRESS_WINDOW = 600
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
PHONE = re.compile(r"\+?[0-9 ()-]{6,20}")
NAME_FIELDS = ("name", "nome", "full_name", "nome_completo")
DEFAULT_MAX = 1000
MAX_LENGTH = 10_000  # pages' ceiling for a field's MaxLength (app/pages/form/schemas.py)
UNCHECKABLE = "this field's pattern cannot be checked"

log = logging.getLogger("herald.runtime.forms")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else ""
    return str(value).strip()


def _limit(spec: dict) -> int:
    """The field's MaxLength (pages allows 1 to 10,000), :data:`DEFAULT_MAX` without one."""
    limit = spec.get("MaxLength")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        return DEFAULT_MAX
    return min(limit, MAX_LENGTH)


def validate(form: dict, values: dict[str, Any], consent: bool) -> dict[str, Any]:
    """The clean values by field name, or 400 ValidationError with a reason per field (422 when a
    field's pattern cannot be checked)."""
    fields = {item["Name"]: item for item in form.get("Fields") or [] if isinstance(item, dict) and item.get("Name")}
    problems: dict[str, str] = {}
    uncheckable: dict[str, str] = {}
    for name in values:
        if name not in fields:
            problems[name] = "is not a field of this form"
    clean: dict[str, Any] = {}
    for name, spec in fields.items():
        kind = spec.get("Type", "text")
        raw = values.get(name)
        if kind == "checkbox":
            checked = raw is True or _text(raw).lower() in ("true", "on", "1", "yes")
            if spec.get("Required") and not checked:
                problems[name] = "must be checked"
            clean[name] = checked
            continue
        text = _text(raw)
        if not text:
            if spec.get("Required"):
                problems[name] = "is required"
            continue
        limit = _limit(spec)
        # The length goes first, so that a pattern only ever runs on at most ``limit`` characters.
        if len(text) > limit:
            problems[name] = f"must be at most {limit} characters"
        elif kind == "email" and not EMAIL.fullmatch(text):
            problems[name] = "must be an e-mail address"
        elif kind == "tel" and not PHONE.fullmatch(text):
            problems[name] = "must be a telephone number"
        elif kind == "number":
            try:
                float(text)
            except ValueError:
                problems[name] = "must be a number"
        elif kind == "date":
            try:
                date.fromisoformat(text)
            except ValueError:
                problems[name] = "must be a date as YYYY-MM-DD"
        elif kind == "select" and text not in (spec.get("Options") or []):
            problems[name] = "must be one of the options"
        elif spec.get("Pattern") not in (None, ""):
            try:
                if not patterns.fullmatch(spec["Pattern"], text):
                    problems[name] = "does not have the expected format"
            except patterns.UnsupportedPattern as exc:
                log.warning("form %s: field %r: pattern %r cannot run in RE2 (%s); submission refused",
                            form.get("Id"), name, spec["Pattern"], exc)
                uncheckable[name] = UNCHECKABLE
        clean[name] = text.lower() if kind == "email" else text
    required_consent = isinstance(form.get("Consent"), dict) and form["Consent"].get("Required", True)
    if required_consent and not consent:
        problems["Consent"] = "must be given"
    if uncheckable:
        # Not the visitor's doing and not fixable by them: the form's owner must change the pattern.
        raise errors.Unprocessable("The submission cannot be checked: " + "; ".join(
            f"{name}: {reason}" for name, reason in uncheckable.items()) + ".", details={**problems, **uncheckable})
    if problems:
        raise errors.ValidationError("The submission is not valid: " + "; ".join(
            f"{name} {reason}" for name, reason in problems.items()), details=problems)
    return clean


def contact_of(form: dict, clean: dict[str, Any], consent: bool) -> dict[str, Any]:
    """What the CRM gets: e-mail, phone and name picked from the fields, the rest as attributes; for
    a form that asks for consent, the answer and the wording the person was shown (kept on the CRM's
    event as the record of what was agreed to)."""
    kinds = {item["Name"]: item.get("Type") for item in form.get("Fields") or [] if isinstance(item, dict)}
    email = next((clean[name] for name, kind in kinds.items() if kind == "email" and clean.get(name)), None)
    phone = next((clean[name] for name, kind in kinds.items() if kind == "tel" and clean.get(name)), None)
    name = next((clean[field] for field in NAME_FIELDS if clean.get(field)), None)
    used = {key for key, value in clean.items() if value in (email, phone, name) and value is not None}
    attributes = {key: value for key, value in clean.items() if key not in used}
    asked = form.get("Consent") if isinstance(form.get("Consent"), dict) else None
    wording = asked.get("Text") if asked else None
    return {"email": email, "phone": phone, "name": name, "external_id": None, "attributes": attributes,
            "consent": bool(consent) if asked else None,
            "consent_text": wording if isinstance(wording, str) and wording else None, **routing(form)}


def routing(form: dict) -> dict[str, Any]:
    """What the form's ``Destination`` asks of each submission, kept with it (sealed) as it was when
    the submission came in: ``list``, the CRM list the contact joins; ``notify``, the address told
    of it (checked by pages at save; checked again, and limited per day, by the notice job)."""
    destination = form.get("Destination") if isinstance(form.get("Destination"), dict) else {}
    found: dict[str, Any] = {}
    if isinstance(destination.get("CrmList"), str) and destination["CrmList"]:
        found["list"] = destination["CrmList"]
    if isinstance(destination.get("NotifyEmail"), str) and destination["NotifyEmail"]:
        found["notify"] = {"to": destination["NotifyEmail"], "form": str(form.get("Name") or form.get("Id") or "")}
    return found


def address_bucket(address: str) -> str:
    return "forms:addr:" + hashlib.sha256(address.encode()).hexdigest()[:32]


async def admit_address(limiter: RateLimiter, address: str) -> None:
    decision = await limiter.hit(address_bucket(address), ADDRESS_LIMIT, ADDRESS_WINDOW)
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after, "Too many submissions from this address; try again later.",
                                limit=ADDRESS_LIMIT)


async def store(conn, *, tenant: str, source: str, values: dict[str, Any], form_id: str = "", page_id: str = "",
                page: str = "", variant: str = "") -> Submission:
    """The submission and its job to the CRM (and its notice's, when the form asks for one), in the
    caller's transaction."""
    row = await Submission.create(
        using_db=conn, public_id=new_submission_id(), tenant=tenant, source=source, form_id=form_id or "",
        page_id=page_id or "", page=page[:512], variant=variant or "", data=seal(values),
        occurred_at=datetime.now(timezone.utc))
    await enqueue(conn, Actor.RUNTIME_LEAD_FORWARD, row.id)
    if values.get("notify"):
        await enqueue(conn, Actor.RUNTIME_FORM_NOTIFY, row.id)
    return row


def submission_view(row: Submission) -> dict[str, Any]:
    from kit.timestamps import iso

    return {"Id": row.public_id, "Source": row.source, "FormId": row.form_id or None, "PageId": row.page_id or None,
            "Status": "forwarded" if row.forwarded_at else "pending", "ContactId": row.contact_id,
            "CreatedAt": iso(row.created_at)}
