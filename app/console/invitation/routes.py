"""The invitation landing page (the e-mailed ``/invitations/accept?token=...``): a preview of the
invitation (``GET /api/invitations/{token}/preview``), then accepting it signed in
(``POST /api/invitations/accept``), or signing in or up first; or declining it, signed in or not
(``POST /api/invitations/decline``: the link's token is the authority). Like every page reached from an
e-mail: no referrer, the token out of the address bar, and only a POST the person makes acts."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import cookies, upstream
from app.console.templating import render
from app.console.verification.routes import NO_REFERRER, take_token

bp = Blueprint("console_invitation")
PATH = "/invitations/accept"


@bp.get(PATH, ctx_query=("token",))
async def landing(request: Request) -> HTTPResponse:
    moved = take_token(request, "invite", PATH)
    if moved is not None:
        return moved
    carried = cookies.carried(request, "invite")
    preview = None
    if carried:
        answer = await upstream.call(request, "GET", f"/api/invitations/{carried['token']}/preview", anonymous=True)
        preview = answer.body if answer.ok else None
    signed_in = bool(cookies.session_token(request))
    return render(request, "invitation/landing.html", 200 if preview else 404, title="Your invitation",
                  preview=preview, signed_in=signed_in, headers=NO_REFERRER)


@bp.post(PATH)
async def accept(request: Request) -> HTTPResponse:
    carried = cookies.carried(request, "invite")
    if not carried:
        return redirect(PATH, status=303)
    if not cookies.session_token(request):
        return redirect(f"/sign-in?next={PATH}", status=303)
    answer = await upstream.call(request, "POST", "/api/invitations/accept", json={"Token": carried["token"]})
    if answer.status == 401:
        return redirect(f"/sign-in?ended=1&next={PATH}", status=303)
    if answer.ok:
        response = redirect(f"/a/{answer.get('TenantId')}", status=303)
        cookies.drop_carry(request, response, "invite")
        return response
    return _problem(request, answer)


@bp.post("/invitations/decline")
async def decline(request: Request) -> HTTPResponse:
    carried = cookies.carried(request, "invite")
    if not carried:
        return redirect(PATH, status=303)
    answer = await upstream.call(request, "POST", "/api/invitations/decline", json={"Token": carried["token"]},
                                 anonymous=True)
    if not answer.ok:
        return _problem(request, answer)
    response = render(request, "invitation/landing.html", title="Invitation declined", preview=None, declined=True,
                      headers=NO_REFERRER)
    cookies.drop_carry(request, response, "invite")
    return response


EXPLANATIONS = {
    "AlreadyAccepted": "This invitation was already accepted.", "Declined": "This invitation was declined.",
    "Expired": "This invitation has expired. Ask for a new one.", "Revoked": "This invitation was cancelled.",
    "InviteEmailMismatch": "This invitation was sent to another address than the one you signed in with.",
    "Throttling": "Too many tries from your network. Wait a minute and try again.",
}


def _problem(request: Request, answer: upstream.Answer) -> HTTPResponse:
    return render(request, "invitation/landing.html", answer.status if answer.status >= 400 else 400,
                  title="Your invitation", preview=None, signed_in=bool(cookies.session_token(request)),
                  problem=EXPLANATIONS.get(answer.code, answer.message or "This invitation cannot be used."),
                  headers=NO_REFERRER)
