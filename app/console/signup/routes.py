"""Sign-up: ``POST /api/auth/register``, and the contract's 201 and 202 reasons said in words.

From an invitation (``/sign-up?invitation=1``, linked from the invitation's page, whose token is
in the sealed carrier cookie, never in the page): the form says which account the person joins,
takes the invited address and no account name, and its button says "Create my account and join":
pressing it is the person's yes (``ConviteToken``: the platform accepts the invitation with the
sign-up, or refuses both)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.console import cookies, forms, upstream
from app.console.templating import render

bp = Blueprint("console_signup")
REASONS = {
    None: "Your account is ready. We sent you an e-mail: follow its link to verify your address, then sign in.",
    "DomainClaimed": "An account already uses your company's e-mail domain. We asked its owners to let you in; you "
                     "will get an e-mail when they answer. Meanwhile, verify your address from the e-mail we sent.",
    "TenantNameTaken": "Your sign-in is ready, but that account name is taken. Sign in and create an account with "
                       "another name.",
    "ProvisioningFailed": "Your sign-in is ready, but the account could not be made just now. Sign in and create "
                          "one from the accounts page.",
    "Invited": "Your account is ready and you joined the account that invited you. We sent you an e-mail: follow "
               "its link to verify your address, then sign in.",
}
INVITATION_PROBLEMS = {
    "InviteInvalid": "This invitation cannot be used any more. Ask for a new one, or create an account of your own.",
    "InviteEmailMismatch": "Use the address the invitation was sent to.",
}


async def _invitation(request: Request, asked: str | None) -> tuple[str, dict] | None:
    """The carried invitation's token and preview, when the sign-up is one from it (still pending)."""
    carried = cookies.carried(request, "invite") if asked else None
    if not carried:
        return None
    try:
        answer = await upstream.call(request, "GET", f"/api/invitations/{carried['token']}/preview", anonymous=True)
    except upstream.Unavailable:
        return None
    if not answer.ok or answer.get("Status") != "pending":
        return None
    return carried["token"], answer.body


def _form(request: Request, status: int = 200, invitation: tuple[str, dict] | None = None, **context) -> HTTPResponse:
    preview = invitation[1] if invitation else None
    if preview:
        context.setdefault("values", {})["email"] = preview.get("Email", "")
    title = f"Join {preview['TenantName']} on Herald" if preview else "Create your Herald account"
    return render(request, "signup/sign_up.html", status, title=title, invitation=preview, **context)


@bp.get("/sign-up", ctx_query=("invitation",))
async def sign_up_page(request: Request) -> HTTPResponse:
    return _form(request, invitation=await _invitation(request, request.args.get("invitation")))


@bp.post("/sign-up")
async def sign_up(request: Request) -> HTTPResponse:
    entered = forms.values(request, "name", "email", "account")
    password = forms.value(request, "password", strip=False)
    invitation = await _invitation(request, forms.value(request, "invitation"))
    if invitation:
        entered["email"] = invitation[1].get("Email", "")
    errors = {}
    if not entered["name"]:
        errors["name"] = "Enter your name"
    if not entered["email"]:
        errors["email"] = "Enter your e-mail address"
    elif "@" not in entered["email"]:
        errors["email"] = "Enter an e-mail address in the correct format, like name@example.com"
    if len(password) < 12:
        errors["password"] = "Password must be 12 characters or more"
    if not entered["account"] and not invitation:
        errors["account"] = "Enter a name for your account"
    if errors:
        return _form(request, 400, invitation, errors=errors, values=entered)
    body = {"Email": entered["email"], "Password": password, "Name": entered["name"]}
    body.update({"ConviteToken": invitation[0]} if invitation else {"TenantName": entered["account"]})
    answer = await upstream.call(request, "POST", "/api/auth/register", anonymous=True, json=body)
    if answer.status in (201, 202):
        reason = answer.get("Reason") if answer.status == 202 else None
        response = render(request, "signup/done.html", title="Check your e-mail", email=entered["email"],
                          explanation=REASONS.get(reason, REASONS[None]))
        if invitation:
            cookies.drop_carry(request, response, "invite")
        return response
    if answer.code in INVITATION_PROBLEMS:
        return _form(request, 400, invitation, errors={"_": INVITATION_PROBLEMS[answer.code]}, values=entered)
    if answer.status == 409:
        errors = {"email": "An account with this e-mail address already exists. Sign in, or reset your password"}
    elif answer.status == 429:
        errors = {"_": f"Too many sign-ups from your network. {forms.retry_phrase(answer)}"}
    elif answer.status == 422 or "password" in (answer.message or "").lower():
        errors = {"password": answer.message or "Choose a stronger password"}
    else:
        errors = {"_": answer.message or "Check your answers and try again"}
    return _form(request, answer.status, invitation, errors=errors, values=entered)
