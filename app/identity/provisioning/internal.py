"""Service routes of the platform's account flows (service credential only).

    GET    /internal/v1/users/lookup?email=   ``{exists}``: whether the address has an account
    DELETE /internal/v1/users/{id}            withdraw a user a failed sign-up made (204; 409 when
                                              it is not such a user; 204 when already gone)
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import NO_CONTENT, answers, described
from app.http.responses import no_content, reply
from app.identity import db, errors
from app.identity.gate.credentials import require_service
from app.identity.provisioning import service

bp = Blueprint("identity_provisioning")


@bp.get("/internal/v1/users/lookup", ctx_auth="service", ctx_query=("email",),
        ctx_responses=answers({200: {"type": "object", "required": ["exists"],
                                     "properties": {"exists": described(
                                         {"type": "boolean"}, "Whether a user has that e-mail address.")}}}))
async def lookup(request: Request) -> HTTPResponse:
    """Tell whether an e-mail address belongs to an account (`{exists}`).

    Service credential only. 400 `InvalidInput` without `email` (or with one over 320 characters)."""
    require_service(request)
    email = request.args.get("email") or ""
    if not email or len(email) > 320:
        raise errors.InvalidInput("Give 'email'.", details={"email": "required"})
    return reply(request, {"exists": await service.has_account(email)})


@bp.delete("/internal/v1/users/<user_id:id>", ctx_auth="service", ctx_errors=(409,),
           ctx_responses=answers({204: NO_CONTENT}))
async def withdraw(request: Request, user_id: str) -> HTTPResponse:
    """Withdraw a user a sign-up has just made, when the platform could not finish the sign-up.

    Service credential only; 204 when done (and when there is no such user any more). 409 for a user not made by a
    sign-up moments ago, or who has signed in."""
    require_service(request)
    async with db.transaction() as conn:
        await service.withdraw(conn, user_id)
    return no_content()
