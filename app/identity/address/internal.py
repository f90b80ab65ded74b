"""Who holds an address, for the platform (service credential only).

    GET /internal/v1/addresses/verified?email=   ``{user_ids}``: the people for whom the address is
                                                 verified (primary or recovery); empty when none

The platform asks it before an account may send notices to an address (a form's ``NotifyEmail``
must be a verified address of one of the account's members: docs/pages.md, "Forms").
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers, described
from app.http.responses import reply
from app.identity import db, errors
from app.identity.address import service
from app.identity.gate.credentials import require_service

bp = Blueprint("identity_address_internal")

OWNERS = {"type": "object", "required": ["user_ids"],
          "properties": {"user_ids": described({"type": "array", "items": {"type": "string"}},
                                               "The ids (usr_...) of the people for whom the address is verified, "
                                               "as primary or recovery address; empty when none.")}}


@bp.get("/internal/v1/addresses/verified", ctx_auth="service", ctx_query=("email",),
        ctx_responses=answers({200: OWNERS}))
async def verified_owners(request: Request) -> HTTPResponse:
    """The people for whom the address is a verified one."""
    require_service(request)
    email = (request.args.get("email") or "").strip()
    if not email or len(email) > 320:
        raise errors.InvalidInput("Give 'email'.", details={"email": "required"})
    return reply(request, {"user_ids": await service.owners_of_verified(db.connection(), email)})
