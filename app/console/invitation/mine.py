"""The invitations waiting for the signed-in person (``/invitations``, the navigation's badge
leads here): each shown with its account and role, accepted or declined only by the person's own
button (``GET /api/me/convites``, ``POST /api/me/convites/{id}/aceitar`` and ``/recusar``)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.invitation.routes import EXPLANATIONS
from app.console.templating import render

bp = Blueprint("console_my_invitations")


async def page(request: Request, status: int = 200, **context) -> HTTPResponse:
    await gate.require_person(request)
    try:
        listed = await upstream.call(request, "GET", "/api/me/convites")
        invitations = listed.get("Convites") if listed.ok else None
    except upstream.Unavailable:
        invitations = None
    if invitations is not None:  # those waiting for an answer first
        invitations = sorted(invitations, key=lambda row: (row.get("Status") != "pending", row.get("TenantName", "")))
    return render(request, "invitation/mine.html", status, title="Your invitations", invitations=invitations,
                  **context)


@bp.get("/invitations", ctx_query=("declined",))
async def invitations(request: Request) -> HTTPResponse:
    if request.args.get("declined"):
        return await page(request, notice="You declined the invitation. Nobody was added.")
    return await page(request)


async def _decide(request: Request, invitation_id: str, verb: str) -> upstream.Answer:
    await gate.require_person(request)
    return await upstream.call(request, "POST", f"/api/me/convites/{invitation_id[:40]}/{verb}")


def _refused(answer: upstream.Answer) -> str:
    if answer.status == 429:
        return f"Too many answers to invitations. {forms.retry_phrase(answer)}"
    return EXPLANATIONS.get(answer.code, answer.message or "This invitation cannot be used.")


@bp.post("/invitations/<invitation_id:str>/accept")
async def accept(request: Request, invitation_id: str) -> HTTPResponse:
    answer = await _decide(request, invitation_id, "aceitar")
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await page(request, answer.status, errors={"_": _refused(answer)})
    return redirect(f"/a/{(answer.get('Convite') or {}).get('TenantId', '')}", status=303)


@bp.post("/invitations/<invitation_id:str>/decline")
async def decline(request: Request, invitation_id: str) -> HTTPResponse:
    answer = await _decide(request, invitation_id, "recusar")
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await page(request, answer.status, errors={"_": _refused(answer)})
    return redirect("/invitations?declined=1", status=303)
