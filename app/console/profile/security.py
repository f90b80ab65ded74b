"""The writes of "My profile and security" that protect the account: e-mail addresses (add, send
the link again, make primary, remove: ``/api/me/emails``), new recovery codes
(``POST /api/me/codigos-recuperacao``, shown once) and turning two-factor sign-in off
(``POST /api/auth/2fa/disable``). A write the platform answers with ``ReauthRequired`` shows the
confirmation page (app/console/profile/reauth.py), then the person does it again."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.profile import reauth
from app.console.profile.routes import profile_page

bp = Blueprint("console_security")
ADDRESS_LIMIT = 320


async def _write(request: Request, method: str, path: str, json: dict | None = None) -> upstream.Answer | HTTPResponse:
    """The write as the person; the confirmation page when it needs a re-authentication."""
    await gate.require_person(request)
    answer = await upstream.call(request, method, path, json=json)
    return reauth.refused(request, answer, "/me") or answer


def _failed(answer: upstream.Answer, fallback: str) -> str:
    if answer.status == 429:
        return f"Too many tries. {forms.retry_phrase(answer)}"
    return answer.message or fallback


@bp.post("/me/emails")
async def add_address(request: Request) -> HTTPResponse:
    email = forms.value(request, "new_email")
    if "@" not in email or len(email) > ADDRESS_LIMIT:
        await gate.require_person(request)
        return await profile_page(request, 400, values={"new_email": email},
                                  errors={"new_email": "Enter an e-mail address in the correct format, like name@example.com"})
    answer = await _write(request, "POST", "/api/me/emails", {"email": email})
    if isinstance(answer, HTTPResponse):
        return answer
    if not answer.ok:
        return await profile_page(request, answer.status, values={"new_email": email},
                                  errors={"new_email": _failed(answer, "This address cannot be added")})
    return await profile_page(request, notice=f"We sent a link to {email}. The address is added once it is verified.")


async def _address_write(request: Request, method: str, path: str, refused: str) -> upstream.Answer | HTTPResponse:
    """A write on one of the person's addresses: the page to show when it did not go through, or the
    answer when it did (a foreign or missing address is the console's 404)."""
    answer = await _write(request, method, path)
    if isinstance(answer, HTTPResponse):
        return answer
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await profile_page(request, answer.status, errors={"_": _failed(answer, refused)})
    return answer


@bp.post("/me/emails/<email_id:str>/resend")
async def resend(request: Request, email_id: str) -> HTTPResponse:
    answer = await _address_write(request, "POST", f"/api/me/emails/{email_id}/reenviar", "The link could not be sent")
    if isinstance(answer, HTTPResponse):
        return answer
    return await profile_page(request, notice="We sent the verification link again.")


@bp.post("/me/emails/<email_id:str>/primary")
async def make_primary(request: Request, email_id: str) -> HTTPResponse:
    answer = await _address_write(request, "POST", f"/api/me/emails/{email_id}/primario",
                                  "This address cannot be primary")
    if isinstance(answer, HTTPResponse):
        return answer
    return await profile_page(request, notice="Your primary address changed: sign-in, codes and resets go to it.")


@bp.post("/me/emails/<email_id:str>/remove")
async def remove(request: Request, email_id: str) -> HTTPResponse:
    answer = await _address_write(request, "DELETE", f"/api/me/emails/{email_id}", "This address stays")
    if isinstance(answer, HTTPResponse):
        return answer
    return redirect("/me", status=303)


@bp.post("/me/recovery-codes")
async def recovery_codes(request: Request) -> HTTPResponse:
    answer = await _write(request, "POST", "/api/me/codigos-recuperacao")
    if isinstance(answer, HTTPResponse):
        return answer
    if not answer.ok:
        return await profile_page(request, answer.status,
                                  errors={"_": _failed(answer, "New recovery codes could not be made")})
    return await profile_page(request, recovery_codes=answer.get("codigos") or [],
                              notice="Your new recovery codes are below. The earlier ones no longer work.")


@bp.post("/me/two-factor/disable")
async def two_factor_disable(request: Request) -> HTTPResponse:
    password = forms.value(request, "disable_password", strip=False)
    if not password:
        await gate.require_person(request)
        return await profile_page(request, 400, errors={"disable_password": "Enter your password"})
    answer = await _write(request, "POST", "/api/auth/2fa/disable", {"Password": password})
    if isinstance(answer, HTTPResponse):
        return answer
    if not answer.ok:
        message = _failed(answer, "The password is not right") if answer.status == 429 else "The password is not right"
        return await profile_page(request, answer.status, errors={"disable_password": message})
    if answer.get("Method") == "email":
        return await profile_page(request, recovery_codes=answer.get("RecoveryCodes") or [],
                                  notice="The authenticator app is off. Sign-in now asks for a code we e-mail you.")
    return await profile_page(request, notice="Two-factor sign-in is off.")
