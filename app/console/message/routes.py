"""An account's messages: the list (the filters of ``GET /api/messages`` in the URL, keyset
pages), one message (its properties, timeline, text and HTML as tabs named in the URL) and the
e-mail's HTML on a route of its own, framed by the detail page in a sandbox.

The HTML is a stranger's content (anyone who can send through the account wrote it): it is served
with a CSP that runs no script and loads nothing but inline styles and data:/cid: images (remote
images only when the person switches them on: a remote image is a tracking pixel), no referrer, in
an ``<iframe sandbox>`` without scripts or same origin; its links open apart with ``noopener``.
"""

from __future__ import annotations

import asyncio
import json
import re
from urllib.parse import urlencode

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import html

from app.console import forms, gate, guard, upstream
from app.console.message import words
from app.console.templating import is_htmx, render

bp = Blueprint("console_message")

FILTERS = ("channel", "status", "q", "api_key", "from", "to")
MAX_TEXT = 200  # the search box: a substring of a recipient or subject
KEY_ID = re.compile(r"^key_[0-9a-f]{1,64}$")
# from and to as the date inputs send them; the platform reads RFC 3339 times too (a shared link).
MAX_MOMENT = 40
# What the platform's refusal of a filter means, in the words of the form's labels.
FILTER_PROBLEMS = {
    "from": "Enter the first day as a date, like 2026-11-01",
    "to": "Enter the last day as a date, like 2026-11-30",
    "api_key": "Choose one of this account's API keys",
}
TABS = (("properties", "Properties"), ("events", "Timeline"), ("headers", "Headers"), ("text", "Text"),
        ("html", "HTML"), ("raw", "Raw"))
# The detail page frames its own HTML route: the console's CSP plus frame-src 'self'.
DETAIL_CSP = guard.CSP + "; frame-src 'self'"
BODY_CSP = "default-src 'none'; img-src data: cid:{images}; style-src 'unsafe-inline'; frame-ancestors 'self'"
# A page follows unfinished messages every 2 s for 5 minutes at most (a message scheduled hours
# ahead stays queued): then it says so and stops asking.
MAX_POLLS = 150
ANCHOR = re.compile(r"<a(?=[\s>])", re.IGNORECASE)


def chosen_filters(request: Request) -> dict[str, str]:
    """The filters in the URL, bounded: an unknown channel or status is dropped (the form offers the list)."""
    found = {}
    channel, status = request.args.get("channel") or "", request.args.get("status") or ""
    if channel in words.CHANNELS:
        found["channel"] = channel
    if status in words.STATUSES:
        found["status"] = status
    text = (request.args.get("q") or "").strip()[:MAX_TEXT]
    if text:
        found["q"] = text
    key = (request.args.get("api_key") or "").strip()
    if KEY_ID.match(key):
        found["api_key"] = key
    for name in ("from", "to"):  # checked by the platform, whose refusal is shown beside the field
        moment = (request.args.get(name) or "").strip()[:MAX_MOMENT]
        if moment:
            found[name] = moment
    return found


def filter_problems(answer: upstream.Answer) -> dict[str, str]:
    """The platform's 422 on a filter, as field errors (``from`` after ``to`` is said on ``from``)."""
    details = answer.details if answer.status == 422 else {}
    found = {}
    for name, phrase in FILTER_PROBLEMS.items():
        said = str(details.get(name, ""))
        if said == "after 'to'":
            phrase = "The first day must be on or before the last day"
        elif said.startswith("between"):
            phrase = f"The {'first' if name == 'from' else 'last'} day must be between 2000 and 2199"
        if said:
            found[name] = phrase
    return found


async def _keys(request: Request, account_id: str) -> list[dict] | None:
    """The account's keys, revoked ones too (their messages stay), for the key filter; None for
    a member (keys are for owners and admins) or when the platform does not answer."""
    answer = await upstream.call(request, "GET", f"/api/tenants/{account_id}/api-keys", params={"limit": 100},
                                 tenant=account_id)
    return [key for key in answer.get("ApiKeys", []) if isinstance(key, dict)] if answer.ok else None


async def _no_keys() -> None:
    return None


async def _message(request: Request, account_id: str, message_id: str) -> dict:
    answer = await upstream.call(request, "GET", f"/api/messages/{message_id}", tenant=account_id)
    if answer.status in (403, 404):
        raise gate.PageNotFound()
    if not answer.ok:
        raise upstream.Unavailable()
    return answer.body


@bp.get("/a/<account_id:id>/messages", ctx_query=(*FILTERS, "cursor", "poll"))
async def messages(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    filters = chosen_filters(request)
    cursor = (request.args.get("cursor") or "")[:512]
    params = {**filters, **({"cursor": cursor} if cursor else {})}
    # htmx's refreshes swap the list only: the filters' key list is read for the whole page alone,
    # beside the list (one round trip to the platform, not two).
    listed, keys = await asyncio.gather(
        upstream.call(request, "GET", "/api/messages", params=params, tenant=account["Id"]),
        _no_keys() if is_htmx(request) else _keys(request, account["Id"]))
    if listed.status == 404:
        raise gate.PageNotFound()
    rows = listed.get("Messages") if listed.ok else None
    problem = None
    errors = filter_problems(listed)
    if errors:
        rows = []
    elif listed.status in (400, 422):
        problem = "That page of the list has expired. Start again from the first page."
    next_cursor = listed.get("NextCursor") if listed.ok else None
    unfinished = any(row.get("Status") not in words.FINAL for row in rows or ())
    poll = forms.polls(request, MAX_POLLS)
    here = f"/a/{account['Id']}/messages"
    return render(request, "message/messages.html", fragment="message/_list.html", title="Messages", rows=rows,
                  filters=filters, cursor=cursor, problem=problem, words=words, keys=keys, errors=errors,
                  pending=unfinished and poll < MAX_POLLS, stopped=unfinished and poll >= MAX_POLLS,
                  self_url=here + "?" + urlencode({**params, "poll": poll + 1}),
                  next_url=here + "?" + urlencode({**filters, "cursor": next_cursor}) if next_cursor else None,
                  first_url=here + ("?" + urlencode(filters) if filters else "") if cursor else None)


@bp.get("/a/<account_id:id>/messages/<message_id:id>", ctx_query=("tab", "images", "poll"))
async def message(request: Request, account_id: str, message_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    found = await _message(request, account["Id"], message_id)
    tab = request.args.get("tab") if request.args.get("tab") in dict(TABS) else "properties"
    images = request.args.get("images") == "1"
    item = found.get("Message") or {}
    return render(request, "message/message.html", fragment="message/_status.html", title="Message",
                  item=item, events=found.get("Events") or [], tab=tab, tabs=TABS, images=images, words=words,
                  poll=forms.polls(request, MAX_POLLS), max_polls=MAX_POLLS,
                  html_body=_html_of(item), text_body=_text_of(item), mail_headers=_headers_of(item),
                  raw_text=_raw_of(item), headers={"Content-Security-Policy": DETAIL_CSP})


def _headers_of(item: dict) -> list[tuple[str, str]] | None:
    """An e-mail's header fields as its message gives them (None for other channels). The MIME is
    made by the provider at delivery and not kept: Date, Message-ID and DKIM-Signature are not here."""
    if item.get("Channel") != "email":
        return None
    role = {"cc": "Cc", "bcc": "Bcc"}.get(item.get("Role") or "", "To")
    fields = [("From", item.get("From")), (role, item.get("To")), ("Subject", item.get("Subject"))]
    reply_to = item.get("ReplyTo") or (item.get("Content") or {}).get("ReplyTo")
    if reply_to:
        fields.append(("Reply-To", ", ".join(reply_to) if isinstance(reply_to, list) else str(reply_to)))
    custom = item.get("Headers") or (item.get("Content") or {}).get("Headers") or {}
    if isinstance(custom, dict):
        fields += [(str(name), str(value)) for name, value in custom.items()]
    return [(name, value) for name, value in fields if value]


def _raw_of(item: dict) -> str:
    """The message as accepted, as JSON: what the request asked for (attachments described, not their bytes)."""
    kept = {name: item.get(name) for name in ("Channel", "Mode", "From", "To", "Role", "Subject", "Template", "Tags",
                                              "Content") if item.get(name) not in (None, "", {})}
    return json.dumps(kept, indent=2, ensure_ascii=False, sort_keys=False)


def _html_of(item: dict) -> str | None:
    body = item.get("Body") or {}
    return body.get("Html") or (item.get("Content") or {}).get("Html") or None


def _text_of(item: dict) -> str | None:
    body = item.get("Body") or {}
    content = item.get("Content") or {}
    return body.get("Text") or content.get("Text") or content.get("Body") or None


@bp.get("/a/<account_id:id>/messages/<message_id:id>/html", ctx_query=("images",))
async def message_html(request: Request, account_id: str, message_id: str) -> HTTPResponse:
    """The e-mail's HTML alone, for the detail page's sandboxed frame."""
    account = await gate.require_account(request, account_id)
    item = (await _message(request, account["Id"], message_id)).get("Message") or {}
    images = request.args.get("images") == "1"
    body = _html_of(item) or ""
    # Every link opens apart, without the opener and without the console's address as referrer.
    body = ANCHOR.sub('<a rel="noopener noreferrer" target="_blank"', body)
    head = '<meta charset="utf-8"><meta name="referrer" content="no-referrer"><base target="_blank">'
    return html(head + body, headers={
        "Content-Security-Policy": BODY_CSP.format(images=" https:" if images else ""),
        "Referrer-Policy": "no-referrer", "X-Frame-Options": "SAMEORIGIN", "Cache-Control": "no-store"})
