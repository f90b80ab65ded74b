"""Password reset: asking for a link (``POST /api/auth/password-reset``, answered neutrally), the
e-mailed link (``/reset-password?token=``: the token taken out of the address bar, no referrer),
and the new password with the policy shown, plus the second-factor code when the account has
one (``POST /api/auth/password-reset/confirm``; ``send-otp`` e-mails a code)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.console import cookies, forms, upstream
from app.console.templating import render
from app.console.verification.routes import NO_REFERRER, take_token

bp = Blueprint("console_password")
POLICY = "12 characters or more. Passwords found in known breaches are refused."


@bp.get("/reset-password", ctx_query=("token",))
async def request_page(request: Request) -> HTTPResponse:
    moved = take_token(request, "reset", "/reset-password/new")
    if moved is not None:
        return moved
    return render(request, "password/request.html", title="Reset your password", headers=NO_REFERRER)


@bp.post("/reset-password")
async def ask(request: Request) -> HTTPResponse:
    email = forms.value(request, "email")
    if "@" not in email:
        return render(request, "password/request.html", 400, title="Reset your password", values={"email": email},
                      errors={"email": "Enter an e-mail address in the correct format, like name@example.com"})
    answer = await upstream.call(request, "POST", "/api/auth/password-reset", json={"Email": email}, anonymous=True)
    if answer.status == 429:
        return render(request, "password/request.html", 429, title="Reset your password", values={"email": email},
                      errors={"_": f"Too many requests. {forms.retry_phrase(answer)}"})
    return render(request, "password/sent.html", title="Check your e-mail", email=email)


def _new_form(request: Request, status: int = 200, **context) -> HTTPResponse:
    return render(request, "password/new.html", status, title="Choose a new password", policy=POLICY,
                  has_token=bool(cookies.carried(request, "reset")), headers=NO_REFERRER, **context)


@bp.get("/reset-password/new")
async def new_page(request: Request) -> HTTPResponse:
    return _new_form(request)


@bp.post("/reset-password/new")
async def choose(request: Request) -> HTTPResponse:
    carried = cookies.carried(request, "reset")
    if not carried:
        return _new_form(request, 400)
    if forms.value(request, "action") == "send-code":
        await upstream.call(request, "POST", "/api/auth/password-reset/send-otp", json={"Token": carried["token"]},
                            anonymous=True)
        return _new_form(request, needs_code=True, notice="If your account uses e-mailed codes, one is on its way.")
    password = forms.value(request, "password", strip=False)
    code = forms.code(request)
    if len(password) < 12:
        return _new_form(request, 400, errors={"password": "Password must be 12 characters or more"},
                         needs_code=bool(code))
    body = {"Token": carried["token"], "Password": password}
    if code:
        body["Code"] = code
    answer = await upstream.call(request, "POST", "/api/auth/password-reset/confirm", json=body, anonymous=True)
    if answer.ok:
        response = render(request, "password/done.html", title="Password changed", headers=NO_REFERRER)
        cookies.drop_carry(request, response, "reset")
        return response
    if answer.status == 422:
        return _new_form(request, 422, errors={"password": answer.message or "Choose a stronger password"},
                         needs_code=bool(code))
    if answer.status == 401 and "2fa" in answer.code.lower() or answer.code.startswith("TwoFactor"):
        return _new_form(request, 401, needs_code=True,
                         errors={"code": "Enter the code from your authenticator app" if not code
                                 else "The code is not right"})
    if answer.status == 429:
        return _new_form(request, 429, errors={"_": f"Too many attempts. {forms.retry_phrase(answer)}"})
    response = render(request, "password/new.html", 400, title="This link does not work", policy=POLICY,
                      has_token=False, headers=NO_REFERRER)
    cookies.drop_carry(request, response, "reset")
    return response
