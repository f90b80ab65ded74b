"""Passkeys: signing in with one, and adding, renaming and removing the person's own on their profile.

A WebAuthn ceremony runs in the browser (``static/js/passkey.js``, a static file: the CSP allows
no inline script). The script asks the console for the options as JSON (``.../options``), hands
them to ``navigator.credentials``, puts the browser's answer into the form's hidden fields and
submits the form: the answer is then an ordinary form post, CSRF token and all, and the page that
follows is rendered here. The console's origin is the ceremony's: the platform accepts it, and the
identity server's relying party (``WEBAUTHN_RP_ID``) covers the console's host.
``POST /api/auth/passkey/login/start`` and ``/finish``; ``GET/POST /api/me/passkeys``,
``POST /api/me/passkeys/iniciar``, ``PATCH`` and ``DELETE /api/me/passkeys/{id}``.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import json as json_answer, redirect

from app.console import forms, gate, upstream
from app.console.profile import reauth
from app.console.profile.routes import profile_page
from app.console.signin import routes as signin
from app.http.identity import origin_of

bp = Blueprint("console_passkey")
UNAVAILABLE = "Passkeys are unavailable just now. Try again in a few minutes, or use your password."


def _origin(request: Request) -> str:
    return origin_of(request.app.ctx.settings.url_of("console"))


def _options(answer: upstream.Answer) -> HTTPResponse:
    if answer.ok and isinstance(answer.get("opcoes"), dict):
        return json_answer({"challenge": answer.get("desafio_id"), "options": answer.get("opcoes")})
    return json_answer({"error": UNAVAILABLE}, status=503 if answer.status >= 500 else answer.status)


# -- sign-in ---------------------------------------------------------------------------------------

@bp.post("/sign-in/passkey/options")
async def sign_in_options(request: Request) -> HTTPResponse:
    try:
        answer = await upstream.call(request, "POST", "/api/auth/passkey/login/start",
                                     json={"origin": _origin(request)}, anonymous=True)
    except upstream.Unavailable:
        return json_answer({"error": UNAVAILABLE}, status=503)
    if answer.status == 429:
        return json_answer({"error": f"Too many attempts to sign in. {forms.retry_phrase(answer)}"}, status=429)
    return _options(answer)


@bp.post("/sign-in/passkey")
async def sign_in(request: Request) -> HTTPResponse:
    next_path = forms.value(request, "next")
    credential, challenge = forms.passkey_answer(request), forms.value(request, "challenge")
    if credential is None or not challenge:
        return signin.form(request, 400, errors={"_": "Your browser did not answer with a passkey. Try again."},
                           next=next_path)
    try:
        answer = await upstream.call(request, "POST", "/api/auth/passkey/login/finish",
                                     json={"desafio_id": challenge[:100], "credencial": credential}, anonymous=True)
    except upstream.Unavailable:
        return signin.form(request, 503, errors={"_": UNAVAILABLE}, next=next_path)
    if answer.status == 429:
        return signin.form(request, 429, errors={"_": f"Too many attempts to sign in. {forms.retry_phrase(answer)}"},
                           next=next_path)
    if not answer.ok:
        message = ("That took too long. Try again." if answer.code == "DesafioExpirado"
                   else "That passkey is not one of a Herald account. Try another, or use your password.")
        return signin.form(request, 401, errors={"_": message}, next=next_path)
    return signin.signed_in(request, answer.body, next_path)


# -- the person's passkeys ------------------------------------------------------------------------

@bp.post("/me/passkeys/options")
async def add_options(request: Request) -> HTTPResponse:
    await gate.require_person(request)
    try:
        answer = await upstream.call(request, "POST", "/api/me/passkeys/iniciar", json={"origin": _origin(request)})
    except upstream.Unavailable:
        return json_answer({"error": UNAVAILABLE}, status=503)
    if answer.code == "ReauthRequired":  # the script goes to "Confirm it is you", then back here
        return json_answer({"confirm": "/me/confirm?next=/me"}, status=403)
    return _options(answer)


@bp.post("/me/passkeys")
async def add(request: Request) -> HTTPResponse:
    await gate.require_person(request)
    name = forms.value(request, "passkey_name")[:100]
    credential, challenge = forms.passkey_answer(request), forms.value(request, "challenge")
    if credential is None or not challenge:
        return await profile_page(request, 400, errors={"passkey_name": "Your browser did not make a passkey. Try again"},
                                  values={"passkey_name": name})
    try:
        answer = await upstream.call(request, "POST", "/api/me/passkeys",
                                     json={"desafio_id": challenge[:100], "credencial": credential, "nome": name})
    except upstream.Unavailable:
        return await profile_page(request, 503, errors={"passkey_name": UNAVAILABLE}, values={"passkey_name": name})
    confirm = reauth.refused(request, answer, "/me")
    if confirm is not None:
        return confirm
    if not answer.ok:
        return await profile_page(request, answer.status, values={"passkey_name": name},
                                  errors={"passkey_name": "The passkey could not be added. Try again"})
    return await profile_page(request, notice=f"Passkey “{name}” added: you can sign in with it now."
                              if name else "Passkey added: you can sign in with it now.")


@bp.post("/me/passkeys/<passkey_id:str>/rename")
async def rename(request: Request, passkey_id: str) -> HTTPResponse:
    """A new name for one of the person's passkeys (a label: no "Confirm it is you")."""
    await gate.require_person(request)
    name = forms.value(request, "name")[:100]
    if not name:
        return await profile_page(request, 400, errors={"_": "Enter a name for the passkey"})
    try:
        answer = await upstream.call(request, "PATCH", f"/api/me/passkeys/{passkey_id[:40]}", json={"nome": name})
    except upstream.Unavailable:
        return await profile_page(request, 503, errors={"_": UNAVAILABLE})
    refused = await _refused(request, answer, "The passkey could not be renamed. Try again")
    return refused or await profile_page(request, notice=f"Passkey renamed “{name}”.")


@bp.post("/me/passkeys/<passkey_id:str>/remove")
async def remove(request: Request, passkey_id: str) -> HTTPResponse:
    await gate.require_person(request)
    answer = await upstream.call(request, "DELETE", f"/api/me/passkeys/{passkey_id[:40]}")
    refused = await _refused(request, answer, "The passkey could not be removed. Try again")
    return refused or redirect("/me", status=303)


async def _refused(request: Request, answer: upstream.Answer, failed: str) -> HTTPResponse | None:
    """The page for a passkey write the platform did not make: "Confirm it is you", 404, or the
    profile with ``failed``; None when it was made."""
    confirm = reauth.refused(request, answer, "/me")
    if confirm is not None:
        return confirm
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await profile_page(request, answer.status, errors={"_": failed})
    return None
