"""The e-mailed verification link (``/verify-email?token=...``).

Like every page reached from an e-mail: ``Referrer-Policy: no-referrer``, nothing loaded from
anyone else, the token taken out of the address bar at once (kept in a sealed short-lived
cookie), and nothing done until the person presses the button (mail scanners fetch links; only
a POST acts): ``POST /api/auth/verify``.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import cookies, upstream
from app.console.templating import render

bp = Blueprint("console_verification")
NO_REFERRER = {"Referrer-Policy": "no-referrer"}


def take_token(request: Request, kind: str, path: str) -> HTTPResponse | None:
    """A link's ``?token=``: kept in the carry cookie, and the address bar cleaned by a redirect."""
    token = request.args.get("token")
    if not token:
        return None
    response = redirect(path, status=303, headers=NO_REFERRER)
    cookies.carry(request, response, kind, {"token": token[:512]})
    return response


@bp.get("/verify-email", ctx_query=("token",))
async def verify_page(request: Request) -> HTTPResponse:
    moved = take_token(request, "verify", "/verify-email")
    if moved is not None:
        return moved
    carried = cookies.carried(request, "verify")
    return render(request, "verification/verify.html", title="Verify your e-mail address", has_token=bool(carried),
                  headers=NO_REFERRER)


@bp.post("/verify-email")
async def verify(request: Request) -> HTTPResponse:
    carried = cookies.carried(request, "verify")
    if not carried:
        return render(request, "verification/verify.html", 400, title="Verify your e-mail address", has_token=False,
                      headers=NO_REFERRER)
    answer = await upstream.call(request, "POST", "/api/auth/verify", json={"Token": carried["token"]},
                                 anonymous=True)
    response = render(request, "verification/verified.html", 200 if answer.ok else 400,
                      title="Address verified" if answer.ok else "This link does not work", ok=answer.ok,
                      headers=NO_REFERRER)
    cookies.drop_carry(request, response, "verify")
    return response
