"""Whether an address belongs to a member of an account, for the other systems (service credential):

    GET /internal/v1/tenants/{account}/member-addresses?email=   200 ``{Member}``: true when the
        address is a verified address (primary or recovery) of someone who reaches the account
        (a direct member, or a member of an account above it); 404 for an unknown account

The pages system asks it when a form is saved with a ``NotifyEmail``, and the runtime's worker again
before each notice, so an account can only send its form notices to its own people, and stops as
soon as that person leaves or the address is no longer theirs (docs/pages.md, "Forms"). The
identity server, which holds the addresses, answers which people have it verified; it failing is
a 503, never a yes.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import answers, described, reply_of
from app.http.responses import reply
from app.http.services import require_service_credential, services
from app.platform import db
from app.platform.domain.service import tenant_pk_of
from app.platform.member import service

bp = Blueprint("internal_member_addresses", url_prefix="/internal/v1/tenants/<account:slug>")

MEMBER_ADDRESS = reply_of(Member=described(
    {"type": "boolean"}, "Whether the address is a verified one of someone who reaches the account."))
MAX_ADDRESS = 320


@bp.get("/member-addresses", ctx_auth="service", ctx_query=("email",), ctx_errors=(400, 404, 503),
        ctx_responses=answers({200: MEMBER_ADDRESS}))
async def member_address(request: Request, account: str) -> HTTPResponse:
    """Whether the address is a verified one of someone who reaches the account."""
    require_service_credential(request)
    email = (request.args.get("email") or "").strip()
    if not email or len(email) > MAX_ADDRESS:
        raise errors.ValidationError("Give 'email'.", details={"email": "required, at most 320 characters"})
    conn = db.connection()
    await tenant_pk_of(conn, account)  # 404 before anything is asked of the identity server
    answer = await services(request.app).client("identity").get(
        "/internal/v1/addresses/verified", params={"email": email}, outage=errors.ServiceUnavailable)
    owners = answer.body.get("user_ids") if answer.ok and isinstance(answer.body, dict) else None
    if not isinstance(owners, list):
        raise errors.ServiceUnavailable(retry_after=5)
    for user_id in owners:
        if isinstance(user_id, str) and await service.access(conn, user_id, account) is not None:
            return reply(request, {"Member": True})
    return reply(request, {"Member": False})
