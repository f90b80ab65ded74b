"""The platform blocklist on the operator surface (contract D; docs/operator.md).

    GET/POST /api/admin/blacklist                          entries (?kind=, ?q=); add one
    DELETE   /api/admin/blacklist/{id}                     remove one
    GET/POST /api/admin/blacklist/suggestions              undecided suggestions; register one
    POST     /api/admin/blacklist/suggestions/{id}/apply   promote to an entry
    POST     /api/admin/blacklist/suggestions/{id}/dismiss discard

Entries apply to every account at once: the send path refuses a blocked recipient with
``SuppressedAddress`` and the delivery actor re-checks before sending.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.blocklist import service
from app.platform.blocklist.schemas import BlockCreate
from app.platform.blocklist.views import (ENTRIES, ENTRY, SUGGESTION, SUGGESTIONS, entry_json, suggestion_json)
from app.platform.gate.admin import actor

bp = Blueprint("platform_admin_blocklist")
MAX_Q = 320


def _page(request: Request) -> KeysetPage:
    return KeysetPage.of(request, default_limit=50, max_limit=200)


@bp.get("/api/admin/blacklist", ctx_auth="session", ctx_query=("cursor", "limit", "kind", "q"),
        ctx_errors=(400, 404), ctx_responses=answers({200: ENTRIES}))
async def list_entries(request: Request) -> HTTPResponse:
    """List the platform blocklist's entries, a page at a time.

    Staff only: anyone else gets 404. `kind` keeps one kind of entry (422 for another value) and `q` those whose value
    contains it (at most 320 characters)."""
    kind = request.args.get("kind") or None
    q = (request.args.get("q") or "").strip().lower() or None
    if kind is not None and kind not in service.KINDS:
        raise errors.Unprocessable(f"Query parameter 'kind' must be one of {', '.join(service.KINDS)}.",
                                   details={"kind": "one of " + ", ".join(service.KINDS)})
    if q is not None and len(q) > MAX_Q:
        raise errors.Unprocessable("Query parameter 'q' is too long.", details={"q": f"at most {MAX_Q} characters"})
    conn = db.connection()
    page = await _page(request).fetch(conn, service.entries(conn, kind, q), audience=f"blocklist:{kind}:{q}")
    return reply(request, {"Entries": [entry_json(row) for row in page.items], "NextCursor": page.next_cursor,
                           "HasMore": page.has_more})


@bp.post("/api/admin/blacklist", ctx_auth="session", ctx_body=BlockCreate, ctx_errors=(403, 404, 409, 413),
         ctx_responses=answers({201: ENTRY}))
async def add_entry(request: Request) -> HTTPResponse:
    """Block an address, a domain (with its subdomains) or a phone number on every account."""
    body = parse_body(request, BlockCreate)
    async with db.transaction() as conn:
        entry = await service.add_entry(conn, actor(request), body.kind, body.value, body.reason.strip())
    return reply(request, {"Entry": entry_json(entry)}, status=201)


@bp.delete("/api/admin/blacklist/<entry_id:id>", ctx_auth="session", ctx_errors=(403, 404),
           ctx_responses=answers({204: NO_CONTENT}))
async def remove_entry(request: Request, entry_id: str) -> HTTPResponse:
    """Remove an entry from the platform blocklist: its value can be sent to again.

    Staff only (404 to anyone else, and for an unknown entry); 403 in a support session."""
    async with db.transaction() as conn:
        await service.remove_entry(conn, actor(request), entry_id)
    return no_content()


@bp.get("/api/admin/blacklist/suggestions", ctx_auth="session", ctx_query=("cursor", "limit"),
        ctx_errors=(400, 404), ctx_responses=answers({200: SUGGESTIONS}))
async def list_suggestions(request: Request) -> HTTPResponse:
    """Undecided suggestions: registered by staff, or made by the scheduler from hard bounces and complaints."""
    conn = db.connection()
    page = await _page(request).fetch(conn, service.undecided(conn), audience="blocklist-suggestions")
    return reply(request, {"Suggestions": [suggestion_json(row) for row in page.items],
                           "NextCursor": page.next_cursor, "HasMore": page.has_more})


@bp.post("/api/admin/blacklist/suggestions", ctx_auth="session", ctx_body=BlockCreate,
         ctx_errors=(403, 404, 409, 413), ctx_responses=answers({201: SUGGESTION}))
async def add_suggestion(request: Request) -> HTTPResponse:
    """Suggest an address, domain or phone number for the blocklist.

    Staff only (404 to anyone else); the suggestion waits for a decision (`Source: staff`). 409 when the value is
    already suggested or blocked; 403 in a support session."""
    body = parse_body(request, BlockCreate)
    async with db.transaction() as conn:
        found = await service.suggest(conn, actor(request), body.kind, body.value, body.reason.strip())
    return reply(request, {"Suggestion": suggestion_json(found)}, status=201)


@bp.post("/api/admin/blacklist/suggestions/<suggestion_id:id>/apply", ctx_auth="session",
         ctx_errors=(403, 404, 409), ctx_responses=answers({200: ENTRY}))
async def apply(request: Request, suggestion_id: str) -> HTTPResponse:
    """Promote the suggestion to a block entry (409 when it was already decided)."""
    async with db.transaction() as conn:
        entry = await service.apply(conn, actor(request), suggestion_id)
    return reply(request, {"Entry": entry_json(entry)})


@bp.post("/api/admin/blacklist/suggestions/<suggestion_id:id>/dismiss", ctx_auth="session",
         ctx_errors=(403, 404, 409), ctx_responses=answers({200: SUGGESTION}))
async def dismiss(request: Request, suggestion_id: str) -> HTTPResponse:
    """Dismiss a blocklist suggestion without blocking anything.

    Staff only (404 to anyone else). 409 when the suggestion was already decided; 403 in a support session."""
    async with db.transaction() as conn:
        found = await service.dismiss(conn, actor(request), suggestion_id)
    return reply(request, {"Suggestion": suggestion_json(found)})
