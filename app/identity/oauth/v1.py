"""OIDC / OAuth 2.1 surface: discovery, JWKS, ``/authorize`` (the login pages), ``/token``,
``/userinfo``, ``/logout``.

The OAuth endpoints answer RFC 6749 / 6750 errors (``{"error": "invalid_grant", ...}``), rendered
here and only here (:func:`oauth_error`, :func:`invalid_token`); the authorization endpoint never
redirects to a URI that is not registered for the client, exactly.
"""

from __future__ import annotations

import jwt
from sanic import Blueprint, HTTPResponse, Request, redirect
from sanic.response import json as json_response

from app.http.openapi import HTML, REDIRECT, STRING, Schema, answers, described, shape
from app.http.responses import reply
from app.identity import db, errors
from app.identity.gate import throttle
from app.identity.gate.credentials import bearer
from app.identity.login import steps
from app.identity.oauth import pages, service, views
from app.identity.passkey.service import relying_party
from app.identity.session.service import TOKEN_PREFIX, open_session, revoke, session_of_token
from app.identity.signing_key.service import jwks as published_keys
from models.identity import OAuthClient, Session, User

bp = Blueprint("identity_oauth")

AUTHORIZE_PARAMS = ("response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
                    "code_challenge_method", "prompt", "login_hint", "response_mode", "max_age", "ui_locales",
                    "display", "acr_values", "claims", "id_token_hint")
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
# The sign-in form posted back to /authorize (app/identity/oauth/pages.py writes its fields).
AUTHORIZE_FORM = Schema(shape(
    "step", "email", "password", "ticket", "code", "recovery_code", "by_email", "challenge_id", "credential",
    request=described(STRING, "The signed authorization request the sign-in page carries from GET /authorize."),
    step=described({"type": "string", "enum": ["password", "totp", "passkey"]},
                   "Which sign-in step this is: password (the default), totp (the second factor) or passkey."),
    email=described(STRING, "The password step: the person's e-mail address."),
    password=described(STRING, "The password step: the person's password."),
    ticket=described(STRING, "The totp step: the second-factor ticket the password step handed out."),
    code=described(STRING, "The totp step: the code from the authenticator app or the e-mail."),
    recovery_code=described(STRING, "The totp step: a recovery code, instead of code."),
    by_email=described(STRING, "The totp step: 1 when the code was e-mailed, 0 otherwise (which page to show again)."),
    challenge_id=described(STRING, "The passkey step: the id of the challenge the browser signed."),
    credential=described(STRING, "The passkey step: the WebAuthn assertion, as JSON.")))
TOKEN_FORM = Schema(shape(
    "client_id", "code", "redirect_uri", "code_verifier", "refresh_token", "scope",
    grant_type=described({"type": "string", "enum": ["authorization_code", "refresh_token"]},
                         "authorization_code (exchange a code) or refresh_token (exchange a refresh token)."),
    client_id=described(STRING, "The OAuth client's id."),
    code=described(STRING, "authorization_code: the code /authorize sent to the redirect URI."),
    redirect_uri=described(STRING, "authorization_code: the redirect URI the code was sent to, exactly."),
    code_verifier=described(STRING, "authorization_code: the PKCE verifier whose S256 hash was the code_challenge."),
    refresh_token=described(STRING, "refresh_token: the refresh token (hrt_...) to exchange; it is used up."),
    scope=described(STRING, "refresh_token: a narrower set of the granted scopes, space-separated (all by default).")))
# The sign-in pages answer HTML at every step, errors included (the status says what happened).
PAGES = {status: HTML for status in (200, 400, 401, 403, 409, 422, 429, 503)}


def issuer(request: Request) -> str:
    return request.app.ctx.settings.url_of("identity")


def oauth_error(exc: errors.OAuthError) -> HTTPResponse:
    """The RFC 6749 §5.2 body of a token endpoint error."""
    headers = dict(NO_STORE)
    if exc.status == 401:
        headers["WWW-Authenticate"] = 'Basic realm="herald"'
    return json_response({"error": exc.error, "error_description": exc.description}, status=exc.status,
                         headers=headers)


def invalid_token(description: str) -> HTTPResponse:
    """The RFC 6750 answer to a missing or bad bearer token."""
    return json_response({"error": "invalid_token", "error_description": description}, status=401,
                         headers={"WWW-Authenticate": f'Bearer error="invalid_token", error_description="{description}"',
                                  **NO_STORE})


@bp.get("/.well-known/openid-configuration", ctx_responses=answers({200: views.DISCOVERY}))
async def discovery(request: Request) -> HTTPResponse:
    """The OpenID Provider metadata."""
    return json_response(views.discovery(issuer(request)), headers={"Cache-Control": "public, max-age=300"})


@bp.get("/.well-known/jwks.json", ctx_responses=answers({200: views.JWKS}))
async def jwks(request: Request) -> HTTPResponse:
    """The public keys that verify the tokens this server signs (RS256)."""
    return json_response(await published_keys(), headers={"Cache-Control": "public, max-age=300"})


# -- /authorize ------------------------------------------------------------------------------------

def _redirect_error(redirect_uri: str, state: str | None, error: str, description: str, iss: str) -> HTTPResponse:
    return redirect(service.with_query(redirect_uri, {"error": error, "error_description": description,
                                                      "state": state, "iss": iss}), status=303)


# RFC 6749 section 3.1: the authorization server ignores request parameters it does not know.
@bp.get("/authorize", ctx_query=AUTHORIZE_PARAMS, ctx_query_unknown="ignore",
        ctx_responses=answers({**PAGES, 303: REDIRECT}))
async def authorize(request: Request) -> HTTPResponse:
    """Start an OAuth authorization (code flow with PKCE).

    The authorization endpoint (code flow with PKCE S256): the sign-in page, or back to the
    client's registered redirect URI with an error."""
    args = {name: request.args.get(name) for name in AUTHORIZE_PARAMS}
    client = await service.client_for(args["client_id"], args["redirect_uri"])
    if client is None:
        return pages.error_page("This application is not registered here, or it asked to return to an address "
                                "it has not registered. Nothing was sent back to it.")
    iss, state, uri = issuer(request), args["state"], args["redirect_uri"]
    if args["response_type"] != "code":
        return _redirect_error(uri, state, "unsupported_response_type", "only response_type=code", iss)
    if args["code_challenge_method"] != "S256" or not service.CHALLENGE.fullmatch(args["code_challenge"] or ""):
        return _redirect_error(uri, state, "invalid_request", "PKCE with code_challenge_method=S256 is required", iss)
    if args["prompt"] == "none":
        return _redirect_error(uri, state, "login_required", "the user must sign in", iss)
    blob = service.seal_request(client, redirect_uri=uri, scope=args["scope"], state=state, nonce=args["nonce"],
                                code_challenge=args["code_challenge"])
    return pages.login_form(blob, client.name, email=args["login_hint"] or "")


async def _open_session(caller: throttle.Caller, user: User, method: str) -> Session:
    async with db.transaction() as conn:
        session, _ = await open_session(conn, user, user_agent=caller.user_agent, ip=caller.ip, method=method)
    return session


@bp.post("/authorize", ctx_form=AUTHORIZE_FORM, ctx_responses=answers({**PAGES, 303: REDIRECT}))
async def authorize_submit(request: Request) -> HTTPResponse:
    """A step of the sign-in form: the next page, or back to the client with a code."""
    form = request.form or {}
    blob = form.get("request") or ""
    req = service.open_request(blob)
    client = await service.client_for(req["client_id"], req["redirect_uri"]) if req else None
    if client is None:
        return pages.error_page("This sign-in form has expired or is not valid. Go back to the application and "
                                "start again.")
    caller = throttle.caller(request)
    step = form.get("step") or "password"
    try:
        if step == "password":
            email = form.get("email") or ""
            try:
                user = await steps.password_step(caller, email, form.get("password") or "")
            except errors.HttpError as exc:
                return pages.login_form(blob, client.name, email=email, error=exc.message, status=exc.status)
            try:
                challenge = await steps.challenge(caller, user)
            except errors.HttpError as exc:
                return pages.login_form(blob, client.name, email=email, error=exc.message, status=exc.status)
            if challenge is not None:
                return pages.code_form(blob, challenge["ticket"], by_email="email_code" in challenge["methods"])
            session = await _open_session(caller, user, "password")
        elif step == "totp":
            ticket = form.get("ticket") or ""
            try:
                session, _, user = await steps.second_step(caller, ticket, form.get("code"), form.get("recovery_code"))
            except (errors.TwoFactorExpired, errors.InvalidInput) as exc:
                return pages.login_form(blob, client.name, error=exc.message, status=exc.status)
            except errors.HttpError as exc:
                return pages.code_form(blob, ticket, error=exc.message, status=exc.status,
                                       by_email=form.get("by_email") == "1")
        elif step == "passkey":
            try:
                user = await steps.passkey_step(relying_party(request.app.ctx.settings),
                                                form.get("challenge_id") or "", form.get("credential") or "")
            except errors.HttpError as exc:
                return pages.login_form(blob, client.name, error=exc.message, status=exc.status)
            session = await _open_session(caller, user, "passkey")
        else:
            return pages.error_page("Unknown sign-in step.")
    except errors.ServiceUnavailable:
        return pages.error_page("Sign-in is unavailable right now; try again shortly.", status=503)
    async with db.transaction() as conn:
        code = await service.issue_code(conn, client=client, user=user, session=session,
                                        redirect_uri=req["redirect_uri"], scope=req["scope"], nonce=req["nonce"],
                                        code_challenge=req["code_challenge"])
    return redirect(service.with_query(req["redirect_uri"], {"code": code, "state": req["state"],
                                                             "iss": issuer(request)}), status=303)


# -- /token ----------------------------------------------------------------------------------------

@bp.post("/token", ctx_form=TOKEN_FORM, ctx_responses=answers({200: views.TOKEN, 400: views.OAUTH_ERROR,
                                                                  401: views.OAUTH_ERROR}))
async def token(request: Request) -> HTTPResponse:
    """The token endpoint: a code (with its PKCE verifier) or a refresh token for tokens."""
    form = request.form or {}
    try:
        if not request.content_type.startswith("application/x-www-form-urlencoded"):
            raise errors.OAuthError("invalid_request", "the body must be application/x-www-form-urlencoded")
        client = await service.token_client(form.get("client_id") or "")
        grant = form.get("grant_type")
        if grant == "authorization_code":
            answer = await _exchange_code(issuer(request), client, form)
        elif grant == "refresh_token":
            answer = await _refresh(issuer(request), client, form)
        else:
            raise errors.OAuthError("unsupported_grant_type",
                                    "grant_type must be authorization_code or refresh_token")
    except errors.OAuthError as exc:
        return oauth_error(exc)
    return json_response(answer, headers=NO_STORE)


async def _exchange_code(iss: str, client: OAuthClient, form) -> dict:
    async with db.transaction() as conn:
        row, reused_session = await service.claim_code(conn, client, form.get("code") or "")
    if reused_session is not None:
        # A code used twice: someone else may hold it. Revoke what was issued from it.
        async with db.transaction() as conn:
            await revoke(conn, [reused_session])
        raise errors.OAuthError("invalid_grant", "the code was already used")
    session, user = await service.check_code(row, redirect_uri=form.get("redirect_uri"),
                                             code_verifier=form.get("code_verifier"))
    async with db.transaction() as conn:
        return await service.token_set(conn, issuer=iss, client=client, user=user, session=session,
                                       scope=row.scope, nonce=row.nonce)


async def _refresh(iss: str, client: OAuthClient, form) -> dict:
    try:
        async with db.transaction() as conn:
            return await service.refresh(conn, issuer=iss, client=client, presented=form.get("refresh_token") or "",
                                         scope=form.get("scope"))
    except errors.RefreshTokenReused as reuse:
        async with db.transaction() as conn:
            await service.revoke_family(conn, reuse.family)
        raise


# -- /userinfo and /logout -------------------------------------------------------------------------

@bp.route("/userinfo", methods=["GET", "POST"], ctx_auth="accessToken",
          ctx_responses=answers({200: views.USERINFO, 401: views.OAUTH_ERROR}))
async def userinfo(request: Request) -> HTTPResponse:
    """The signed-in person's claims, for an access token."""
    access = bearer(request)
    if not access:
        return invalid_token("a Bearer access token is required")
    try:
        _, session = await service.access_session(access, issuer=issuer(request))
    except jwt.InvalidTokenError as exc:
        return invalid_token("the access token is not valid" if not isinstance(exc, jwt.ExpiredSignatureError)
                             else "the access token has expired")
    return json_response(views.userinfo(session.user), headers=NO_STORE)


@bp.get("/logout", ctx_query=("id_token_hint", "post_logout_redirect_uri", "state", "client_id"),
        ctx_auth="session|accessToken", ctx_unverified=True,
        ctx_responses=answers({200: views.LOGGED_OUT, 303: REDIRECT, 401: views.OAUTH_ERROR}))
async def logout(request: Request) -> HTTPResponse:
    """Log out of an OAuth session.

    Ends the session of a Bearer token (a session token or an access token); or, for a
    browser, the session named by ``id_token_hint``, then returns to a registered
    ``post_logout_redirect_uri``."""
    presented = bearer(request)
    back = None
    try:
        if presented and presented.startswith(TOKEN_PREFIX):
            session = await session_of_token(presented, touch=False)
        elif presented:
            _, session = await service.access_session(presented, issuer=issuer(request))
        elif hint := request.args.get("id_token_hint"):
            session, back = await service.id_token_logout(
                hint, issuer=issuer(request), post_logout_redirect_uri=request.args.get("post_logout_redirect_uri"),
                state=request.args.get("state"))
        else:
            return invalid_token("a Bearer token is required")
    except (jwt.InvalidTokenError, errors.Unauthorized):
        return invalid_token("the token is not valid")
    async with db.transaction() as conn:
        await revoke(conn, [session.id])
    if back:
        return redirect(back, status=303)
    return reply(request, {"logged_out": True})
