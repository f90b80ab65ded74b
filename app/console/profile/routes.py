"""My profile and security: name, e-mail addresses, two-factor state and set-up, active sessions
(the current one first; revoke the others) and the security trail.
``PATCH /api/auth/me``, ``GET /api/me/emails``, ``GET/POST /api/auth/2fa...``,
``GET/DELETE /api/auth/sessions``, ``GET /api/me/eventos``, ``GET /api/me/passkeys`` (their
writes are in passkey/routes.py). A write the platform answers with
``ReauthRequired`` shows the confirmation page (reauth.py); the protecting writes (addresses,
recovery codes, two-factor off) are in security.py."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.profile import reauth
from app.console.templating import render

bp = Blueprint("console_profile")


async def _part(request: Request, path: str, key: str | None = None):
    try:
        answer = await upstream.call(request, "GET", path)
    except upstream.Unavailable:
        return None
    if not answer.ok:
        return None
    return answer.get(key) if key else answer.body


async def profile_page(request: Request, status: int = 200, **context) -> HTTPResponse:
    await gate.require_person(request)
    me = await _part(request, "/api/me")
    sessions = await _part(request, "/api/auth/sessions", "Sessions")
    if sessions is not None:
        sessions = sorted(sessions, key=lambda s: (not s.get("Current"), s.get("CreatedAt") or ""))
    context["values"] = {"name": (me or {}).get("nome", ""), **context.get("values", {})}
    return render(request, "profile/profile.html", status, title="Your profile and security", me=me,
                  addresses=await _part(request, "/api/me/emails", "emails"),
                  factor=await _part(request, "/api/auth/2fa"), sessions=sessions,
                  passkeys=await _part(request, "/api/me/passkeys", "passkeys"),
                  events=await _part(request, "/api/me/eventos", "eventos"), **context)


@bp.get("/me", ctx_query=("confirmed",))
async def profile(request: Request) -> HTTPResponse:
    if request.args.get("confirmed"):
        return await profile_page(request, notice="You confirmed it is you. Now make the change again.")
    return await profile_page(request)


@bp.post("/me/name")
async def rename(request: Request) -> HTTPResponse:
    await gate.require_person(request)
    name = forms.value(request, "name")
    if not name:
        return await profile_page(request, 400, errors={"name": "Enter your name"}, values={"name": name})
    answer = await upstream.call(request, "PATCH", "/api/auth/me", json={"Name": name})
    if not answer.ok:
        return await profile_page(request, answer.status, errors={"name": answer.message or "Enter your name"},
                           values={"name": name})
    return await profile_page(request, notice="Your name is saved.")


@bp.post("/me/sessions/<session_id:id>/revoke")
async def revoke_session(request: Request, session_id: str) -> HTTPResponse:
    await gate.require_person(request)
    answer = await upstream.call(request, "DELETE", f"/api/auth/sessions/{session_id}")
    confirm = reauth.refused(request, answer, "/me")
    if confirm is not None:
        return confirm
    return redirect("/me", status=303)


@bp.post("/me/two-factor/setup")
async def two_factor_setup(request: Request) -> HTTPResponse:
    await gate.require_person(request)
    password = forms.value(request, "password", strip=False)
    if not password:
        return await profile_page(request, 400, errors={"password": "Enter your password"})
    answer = await upstream.call(request, "POST", "/api/auth/2fa/setup", json={"Password": password})
    if not answer.ok:
        return await profile_page(request, answer.status, errors={"password": "The password is not right"})
    return await profile_page(request, setup=answer.body)


@bp.post("/me/two-factor/verify")
async def two_factor_verify(request: Request) -> HTTPResponse:
    await gate.require_person(request)
    code = forms.code(request)
    if not code:
        return await profile_page(request, 400, errors={"code": "Enter the code from your authenticator app"})
    answer = await upstream.call(request, "POST", "/api/auth/2fa/verify", json={"Code": code})
    if not answer.ok:
        return await profile_page(request, answer.status, errors={"code": "The code is not right. Enter the newest code"})
    return await profile_page(request, recovery_codes=answer.get("RecoveryCodes") or [],
                        notice="Two-factor sign-in is on.")
