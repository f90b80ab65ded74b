"""Confirming it is you ("sudo mode") when a write answers 403 ``ReauthRequired``.

The write's page is replaced by the confirmation page (403), which offers the methods the
platform says the person can use now (``Error.Details.metodos``): a passkey (its ceremony in
passkey.js, the options from ``/me/confirm/passkey/options``), the password (with the app code
when the account has one), a code of the authenticator app, or a code e-mailed to one of the
verified addresses (``POST /api/me/reautenticar/iniciar``, its challenge carried in a sealed cookie,
never in the page). ``POST /api/me/reautenticar`` proves it; the person goes back to the page they
were on (``next``, a same-origin path) and does the write again: a confirmation holds for a few
minutes, and the console never replays a write on its own.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import json, redirect

from app.console import cookies, forms, gate, guard, upstream
from app.console.forms import passkey_answer
from app.console.templating import render
from app.http.identity import origin_of

bp = Blueprint("console_reauth")
NAMES = {"password": "your password", "totp": "your authenticator app", "email_otp": "a code we e-mail you",
         "passkey": "a passkey"}
CONSOLE_METHODS = ("passkey", "password", "totp", "email_otp")


def page(request: Request, details: dict, next_path: str, status: int = 403, **context) -> HTTPResponse:
    """The confirmation page for a write refused with ``ReauthRequired`` (its ``Error.Details``)."""
    usable = [row.get("metodo") for row in details.get("metodos") or ()
              if row.get("disponivel") and row.get("metodo") in CONSOLE_METHODS]
    accepted = [m for m in details.get("metodos_aceitos") or () if m in CONSOLE_METHODS]
    destinations = [row for row in details.get("destinos") or () if row.get("email_id")]
    return render(request, "profile/confirm.html", status, title="Confirm it is you", methods=usable or accepted,
                  names=NAMES, destinations=destinations, next=guard.safe_next(next_path) or "/me",
                  minutes=round((details.get("validade_segundos") or 600) / 60), **context)


def refused(request: Request, answer: upstream.Answer, next_path: str) -> HTTPResponse | None:
    """The confirmation page when ``answer`` is ``ReauthRequired``; None otherwise."""
    if answer.code != "ReauthRequired":
        return None
    return page(request, answer.details, next_path)


async def _state(request: Request) -> dict:
    answer = await upstream.call(request, "GET", "/api/me/reautenticar")
    return answer.body if answer.ok and isinstance(answer.body, dict) else {}


@bp.get("/me/confirm", ctx_query=("next",))
async def confirm_page(request: Request) -> HTTPResponse:
    await gate.require_person(request)
    return page(request, await _state(request), request.args.get("next") or "/me", status=200)


@bp.post("/me/confirm/passkey/options")
async def passkey_options(request: Request) -> HTTPResponse:
    """WebAuthn request options for the person's own passkeys (JSON, for passkey.js)."""
    await gate.require_person(request)
    try:
        answer = await upstream.call(request, "POST", "/api/me/reautenticar/iniciar", json={
            "metodo": "passkey", "origin": origin_of(request.app.ctx.settings.url_of("console"))})
    except upstream.Unavailable:
        return json({"error": "Passkeys are unavailable just now. Confirm another way."}, status=503)
    if not answer.ok or not isinstance(answer.get("opcoes"), dict):
        return json({"error": "Passkeys are unavailable just now. Confirm another way."},
                    status=answer.status if answer.status >= 400 else 502)
    return json({"challenge": answer.get("desafio_id"), "options": answer.get("opcoes")})


@bp.post("/me/confirm")
async def confirm(request: Request) -> HTTPResponse:
    await gate.require_person(request)
    method = forms.value(request, "method")
    next_path = guard.safe_next(forms.value(request, "next")) or "/me"
    code = forms.code(request, f"code-{method}")
    if method == "email_otp" and forms.value(request, "email_id"):
        started = await upstream.call(request, "POST", "/api/me/reautenticar/iniciar",
                                      json={"metodo": "email_otp", "email_id": forms.value(request, "email_id")})
        if not started.ok:
            return page(request, await _state(request), next_path, started.status,
                        errors={"_": f"The code could not be sent. {forms.retry_phrase(started)}"})
        response = page(request, await _state(request), next_path, 200, sent_to=(started.get("destino") or {}).get(
            "mascarado"), notice="We e-mailed you a code. It works for 10 minutes.")
        cookies.carry(request, response, "reauth", {"challenge": started.get("desafio_id")})
        return response
    body: dict = {"metodo": method}
    errors = {}
    if method == "password":
        body["senha"] = forms.value(request, "password", strip=False)
        if code:
            body["codigo"] = code
        if not body["senha"]:
            errors["password"] = "Enter your password"
    elif method in ("totp", "email_otp"):
        body["codigo"] = code
        if not code:
            errors[f"code-{method}"] = "Enter the code"
        if method == "email_otp":
            body["desafio_id"] = (cookies.carried(request, "reauth") or {}).get("challenge")
            if not body["desafio_id"]:
                errors[f"code-{method}"] = "Ask for a code first"
    elif method == "passkey":
        body["desafio_id"], body["credencial"] = forms.value(request, "challenge")[:100], passkey_answer(request)
        if not body["desafio_id"] or body["credencial"] is None:
            errors["passkey"] = "Your browser did not answer with a passkey. Try again"
    else:
        errors["_"] = "Choose how to confirm it is you"
    if errors:
        return page(request, await _state(request), next_path, 400, errors=errors)
    answer = await upstream.call(request, "POST", "/api/me/reautenticar", json=body)
    if answer.ok:
        response = redirect(next_path + ("&" if "?" in next_path else "?") + "confirmed=1", status=303)
        cookies.drop_carry(request, response, "reauth")
        return response
    if answer.status == 429:
        message = f"Too many tries. {forms.retry_phrase(answer)}"
    else:
        message = "That is not right. Check it and try again"
    field = {"password": "password", "passkey": "passkey"}.get(method, f"code-{method}")
    return page(request, await _state(request), next_path, answer.status, errors={field: message})
