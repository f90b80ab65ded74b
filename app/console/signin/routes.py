"""Signing in and out: the password, then the second factor when the account has one (an app
code, an e-mailed code with resend, or a recovery code), and sign-out.

The password step calls ``POST /api/auth/login``; a challenge's ticket is carried to the second
step in a sealed cookie (never in the page or the address); the second step calls
``POST /api/auth/2fa``. The session token the platform issues goes into the console's own cookie,
a new one at every sign-in. After sign-in the person goes to ``next`` when it is a same-origin
relative path, else home.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import cookies, forms, guard, upstream
from app.console.templating import render

bp = Blueprint("console_signin")
TICKET = "signin"
METHOD_NAMES = {"totp": "authenticator app", "email": "e-mail"}


def _max_age(expires_at: str | None) -> int | None:
    try:
        moment = datetime.fromisoformat((expires_at or "").replace("Z", "+00:00"))
    except ValueError:
        return None
    return max(0, int((moment - datetime.now(timezone.utc)).total_seconds()))


def signed_in(request: Request, body: dict, next_path: str | None) -> HTTPResponse:
    response = redirect(guard.safe_next(next_path) or "/", status=303)
    cookies.set_session(request, response, body["Token"], _max_age(body.get("ExpiresAt")))
    cookies.ask_staff(request, response)
    return response


def form(request: Request, status: int = 200, **context) -> HTTPResponse:
    context.setdefault("values", {})
    context.setdefault("next", guard.safe_next(request.args.get("next")) or "")
    return render(request, "signin/sign_in.html", status, title="Sign in", **context)


@bp.get("/sign-in", ctx_query=("next", "ended"))
async def sign_in_page(request: Request) -> HTTPResponse:
    notice = "Your session has ended. Sign in again to carry on." if request.args.get("ended") else None
    return form(request, notice=notice)


@bp.post("/sign-in")
async def sign_in(request: Request) -> HTTPResponse:
    entered = forms.values(request, "email", "next")
    password = forms.value(request, "password", strip=False)
    errors = {}
    if not entered["email"]:
        errors["email"] = "Enter your e-mail address"
    elif "@" not in entered["email"]:
        errors["email"] = "Enter an e-mail address in the correct format, like name@example.com"
    if not password:
        errors["password"] = "Enter your password"
    if errors:
        return form(request, 400, errors=errors, values=entered, next=entered["next"])
    answer = await upstream.call(request, "POST", "/api/auth/login",
                                 json={"email": entered["email"], "password": password}, anonymous=True)
    if answer.status == 429:
        return form(request, 429, errors={"_": f"Too many attempts to sign in. {forms.retry_phrase(answer)}"},
                     values=entered, next=entered["next"])
    if answer.status == 403:
        return form(request, 403, errors={"_": "This account is blocked. Contact the people who run this Herald."},
                     values=entered, next=entered["next"])
    if not answer.ok:
        return form(request, 401, errors={"email": "The e-mail address or the password is not right"},
                     values=entered, next=entered["next"])
    if answer.get("TwoFactorRequired"):
        methods = answer.get("TwoFactorMethods") or []
        response = redirect("/sign-in/code", status=303)
        cookies.carry(request, response, TICKET, {"ticket": answer.get("TwoFactorToken"), "methods": methods,
                                                   "email": entered["email"], "next": entered["next"]})
        return response
    return signed_in(request, answer.body, entered["next"])


def _code_form(request: Request, challenge: dict, status: int = 200, **context) -> HTTPResponse:
    methods = challenge.get("methods") or ["totp"]
    context.setdefault("use", request.args.get("use") or ("totp" if "totp" in methods else methods[0]))
    return render(request, "signin/code.html", status, title="Enter your code", methods=methods,
                  method_names=METHOD_NAMES, email=challenge.get("email", ""), **context)


@bp.get("/sign-in/code", ctx_query=("use",))
async def code_page(request: Request) -> HTTPResponse:
    challenge = cookies.carried(request, TICKET)
    if challenge is None:
        return redirect("/sign-in", status=303)
    return _code_form(request, challenge)


@bp.post("/sign-in/code")
async def code(request: Request) -> HTTPResponse:
    challenge = cookies.carried(request, TICKET)
    if challenge is None:
        return redirect("/sign-in?ended=1", status=303)
    use = forms.value(request, "use") or "totp"
    entered = forms.code(request)
    if not entered:
        field = "recovery_code" if use == "recovery" else "code"
        return _code_form(request, challenge, 400, use=use,
                          errors={field: "Enter your recovery code" if use == "recovery" else "Enter the code"})
    body = {"TwoFactorToken": challenge["ticket"]}
    body["RecoveryCode" if use == "recovery" else "Code"] = forms.value(request, "code")
    answer = await upstream.call(request, "POST", "/api/auth/2fa", json=body, anonymous=True)
    if answer.ok:
        return signed_in(request, answer.body, challenge.get("next"))
    if answer.status == 429:
        message = f"Too many codes entered. {forms.retry_phrase(answer)}"
    elif answer.code in ("TwoFactorExpired", "TwoFactorSuperseded"):
        response = redirect("/sign-in?ended=1", status=303)
        cookies.drop_carry(request, response, TICKET)
        return response
    elif answer.code == "TwoFactorCodeExpired":
        message = "The code has expired. Enter the newest code"
    else:
        message = "The recovery code is not right" if use == "recovery" else "The code is not right"
    return _code_form(request, challenge, answer.status if answer.status >= 400 else 400, use=use,
                      errors={"code": message})


@bp.post("/sign-in/code/resend")
async def resend(request: Request) -> HTTPResponse:
    challenge = cookies.carried(request, TICKET)
    if challenge is None:
        return redirect("/sign-in?ended=1", status=303)
    answer = await upstream.call(request, "POST", "/api/auth/2fa/resend",
                                 json={"TwoFactorToken": challenge["ticket"]}, anonymous=True)
    if answer.status == 429:
        return _code_form(request, challenge, 429, use="email",
                          errors={"_": f"Too many codes sent. {forms.retry_phrase(answer)}"})
    return _code_form(request, challenge, use="email", notice=f"A new code is on its way to {challenge.get('email')}.")


@bp.post("/sign-out")
async def sign_out(request: Request) -> HTTPResponse:
    token = cookies.session_token(request)
    failed = False
    if token:
        try:
            answer = await upstream.call(request, "POST", "/api/auth/logout", token=token)
            failed = not answer.ok
        except upstream.Unavailable:
            failed = True
    response = redirect("/signed-out" + ("?unconfirmed=1" if failed else ""), status=303)
    cookies.clear_session(request, response)
    return response


@bp.get("/signed-out", ctx_query=("unconfirmed",))
async def signed_out(request: Request) -> HTTPResponse:
    return render(request, "signin/signed_out.html", title="You are signed out",
                  unconfirmed=bool(request.args.get("unconfirmed")))
