"""A read-only support session on a system that is not the platform (CRM, pages, runtime, mail).

Platform staff who entered an account (POST /api/admin/tenants/{id}/enter) act with their own
identity session, which the identity server knows is inside a support session: the session hop
(``GET /v1/auth/validate``, asked on every request, never cached) names it
(:attr:`SessionPrincipal.support_id`). Then, in :func:`support_access`, called by
app/http/tenant_access.py before any decision:

- every write (any method but GET, HEAD, OPTIONS) is refused with 403 ``ImpersonationReadOnly``,
  whatever the account or route, before anything is asked or done;
- a read is recorded in the entered account's trail first (the platform's
  ``POST /internal/v1/support-sessions/{id}/reads``; GET /api/tenants/{id}/impersonations/{id}/reads
  shows it): a read that cannot be recorded is refused with 503, so nothing is seen off the record;
  the answer's status is added after it (:func:`install`);
- then the identity server decides for *that session* (``sessao``), never cached: the entered
  account answers ``suporte`` with the product's highest role (support reads what the owner reads);
  any other account is 404, as for a stranger. Ending the support session ends the access at the
  very next request.
"""

from __future__ import annotations

import logging

from sanic import HTTPResponse, Request, Sanic

from app.http import errors
from app.http.identity import SAFE_METHODS, SessionPrincipal, decisions
from app.http.services import services

log = logging.getLogger("herald.support")
MAX_PATH = 500


def refuse_writes(request: Request, session: SessionPrincipal) -> None:
    """403 ``ImpersonationReadOnly`` for a write made inside a support session."""
    if session.support_id is not None and request.method not in SAFE_METHODS:
        raise errors.ImpersonationReadOnly()


async def support_access(request: Request, session: SessionPrincipal, tenant: str, product: str):
    """The read, recorded, then allowed in the entered account only (see the module's docstring)."""
    refuse_writes(request, session)
    await record_read(request, session.support_id)
    decision = await decisions(request.app).decide(session.user_id, tenant, product, None,
                                                   session=session.session_id)
    if not decision.allowed or decision.support != session.support_id:
        raise errors.NotFound("Account not found.")
    return decision


async def record_read(request: Request, support_id: str) -> None:
    """The read in the account's trail before it is answered (the path without its query string:
    a search term may be personal data); the platform away: 503; the support session over on the
    platform: 404, as for a stranger."""
    system = request.app.ctx.system.name
    answer = await services(request.app).client("platform").post(
        f"/internal/v1/support-sessions/{support_id}/reads", outage=errors.ServiceUnavailable,
        json={"System": system, "Method": request.method, "Path": request.path[:MAX_PATH]})
    if answer.status == 404:
        raise errors.NotFound("Account not found.")
    read_id = answer.body.get("ReadId") if answer.status == 201 and isinstance(answer.body, dict) else None
    if not isinstance(read_id, int):
        log.error("the platform answered a support read with %s %s", answer.status, answer.error_code)
        raise errors.ServiceUnavailable("Reads inside a support session cannot be recorded right now; "
                                        "try again shortly.", retry_after=5)
    request.ctx.support_read = (support_id, read_id)


async def note_support_read_status(request: Request, response: HTTPResponse) -> None:
    """Adds the answer's status to a recorded read (its loss loses the status, never the read)."""
    read = getattr(request.ctx, "support_read", None)
    if read is None:
        return
    request.ctx.support_read = None
    support_id, read_id = read
    try:
        await services(request.app).client("platform").request(
            "PATCH", f"/internal/v1/support-sessions/{support_id}/reads/{read_id}",
            json={"Status": response.status})
    except errors.HttpError as failure:
        log.warning("support read %s: status %s not recorded: %s", read_id, response.status, failure)


def install(app: Sanic) -> None:
    """Every route of ``app`` notes its answer's status on a recorded read (a system whose public
    edge must stay bare attaches :func:`note_support_read_status` to its gated surfaces instead)."""
    app.on_response(note_support_read_status, priority=10)
