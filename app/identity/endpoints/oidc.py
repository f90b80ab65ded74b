"""OIDC / OAuth 2.1: discovery, JWKS, /authorize (login pages), /token, /userinfo, /logout.

OAuth endpoints answer RFC 6749 / 6750 errors (``{"error": "invalid_grant", ...}``); the
authorization endpoint never redirects to a URI that is not registered for the client, exactly.
"""

from __future__ import annotations

from datetime import datetime, timezone

import jwt
from sanic import Blueprint, HTTPResponse, Request, redirect
from sanic.response import json as json_response
from tortoise.transactions import in_transaction

from app.http.responses import reply
from app.identity import crypto, errors, keys, login, oauth, pages, passkeys
from app.identity.credentials import bearer
from app.identity.sessions import TOKEN_PREFIX, is_live, open_session, revoke, session_of_token
from models.identity import AuthorizationCode, OAuthClient, RefreshToken, Session, User

bp = Blueprint("identity_oidc")

REQUEST_PURPOSE = "authorize-request"
REQUEST_TTL = 900
AUTHORIZE_PARAMS = ("response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
                    "code_challenge_method", "prompt", "login_hint", "response_mode", "max_age", "ui_locales",
                    "display", "acr_values", "claims", "id_token_hint")
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def issuer(request: Request) -> str:
    return request.app.ctx.settings.url_of("identity")


@bp.get("/.well-known/openid-configuration")
async def discovery(request: Request) -> HTTPResponse:
    base = issuer(request)
    return json_response({
        "issuer": base,
        "authorization_endpoint": f"{base}/authorize",
        "token_endpoint": f"{base}/token",
        "userinfo_endpoint": f"{base}/userinfo",
        "jwks_uri": f"{base}/.well-known/jwks.json",
        "end_session_endpoint": f"{base}/logout",
        "scopes_supported": list(oauth.SCOPES),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "claims_supported": ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "sid", "email",
                             "email_verified", "name"],
        "authorization_response_iss_parameter_supported": True,
    }, headers={"Cache-Control": "public, max-age=300"})


@bp.get("/.well-known/jwks.json")
async def jwks(request: Request) -> HTTPResponse:
    return json_response(await keys.jwks(), headers={"Cache-Control": "public, max-age=300"})


# -- /authorize ------------------------------------------------------------------------------------

async def _client_and_redirect(client_id: str | None, redirect_uri: str | None) -> OAuthClient | None:
    client = await OAuthClient.get_or_none(client_id=client_id) if client_id else None
    if client is None or redirect_uri not in client.redirect_uris:
        return None
    return client


def _redirect_error(redirect_uri: str, state: str | None, error: str, description: str, iss: str) -> HTTPResponse:
    return redirect(oauth.with_query(redirect_uri, {"error": error, "error_description": description,
                                                    "state": state, "iss": iss}), status=303)


@bp.get("/authorize", ctx_query=AUTHORIZE_PARAMS)
async def authorize(request: Request) -> HTTPResponse:
    args = {name: request.args.get(name) for name in AUTHORIZE_PARAMS}
    client = await _client_and_redirect(args["client_id"], args["redirect_uri"])
    if client is None:
        return pages.error_page("This application is not registered here, or it asked to return to an address "
                                "it has not registered. Nothing was sent back to it.")
    iss, state, uri = issuer(request), args["state"], args["redirect_uri"]
    if args["response_type"] != "code":
        return _redirect_error(uri, state, "unsupported_response_type", "only response_type=code", iss)
    if args["code_challenge_method"] != "S256" or not oauth.CHALLENGE.fullmatch(args["code_challenge"] or ""):
        return _redirect_error(uri, state, "invalid_request", "PKCE with code_challenge_method=S256 is required", iss)
    if args["prompt"] == "none":
        return _redirect_error(uri, state, "login_required", "the user must sign in", iss)
    blob = crypto.sign(REQUEST_PURPOSE, {
        "client_id": client.client_id, "redirect_uri": uri, "scope": oauth.clean_scope(args["scope"]),
        "state": state, "nonce": args["nonce"], "code_challenge": args["code_challenge"],
    }, REQUEST_TTL)
    return pages.login_form(blob, client.name, email=args["login_hint"] or "")


@bp.post("/authorize")
async def authorize_submit(request: Request) -> HTTPResponse:
    form = request.form or {}
    blob = form.get("request") or ""
    try:
        req = crypto.unsign(REQUEST_PURPOSE, blob)
    except crypto.Expired:
        req = None
    client = await _client_and_redirect(req["client_id"], req["redirect_uri"]) if req else None
    if client is None:
        return pages.error_page("This sign-in form has expired or is not valid. Go back to the application and "
                                "start again.")
    step = form.get("step") or "password"
    try:
        if step == "password":
            email = form.get("email") or ""
            try:
                user = await login.password_step(request, email, form.get("password") or "")
            except errors.HttpError as exc:
                return pages.login_form(blob, client.name, email=email, error=exc.message, status=exc.status)
            try:
                challenge = await login.challenge(request, user)
            except errors.HttpError as exc:
                return pages.login_form(blob, client.name, email=email, error=exc.message, status=exc.status)
            if challenge is not None:
                return pages.code_form(blob, challenge["ticket"], by_email="email_code" in challenge["methods"])
            async with in_transaction("identity") as conn:
                session, _ = await open_session(conn, user, request, "password")
        elif step == "totp":
            ticket = form.get("ticket") or ""
            try:
                session, _, user = await login.second_step(request, ticket, form.get("code"),
                                                           form.get("recovery_code"))
            except (errors.TwoFactorExpired, errors.InvalidInput) as exc:
                return pages.login_form(blob, client.name, error=exc.message, status=exc.status)
            except errors.HttpError as exc:
                return pages.code_form(blob, ticket, error=exc.message, status=exc.status,
                                       by_email=form.get("by_email") == "1")
        elif step == "passkey":
            try:
                user = await passkeys.finish_login(request, form.get("challenge_id") or "",
                                                   form.get("credential") or "")
            except errors.HttpError as exc:
                return pages.login_form(blob, client.name, error=exc.message, status=exc.status)
            async with in_transaction("identity") as conn:
                session, _ = await open_session(conn, user, request, "passkey")
        else:
            return pages.error_page("Unknown sign-in step.")
    except errors.ServiceUnavailable:
        return pages.error_page("Sign-in is unavailable right now; try again shortly.", status=503)
    async with in_transaction("identity") as conn:
        code = await oauth.issue_code(conn, client=client, user=user, session=session,
                                      redirect_uri=req["redirect_uri"], scope=req["scope"], nonce=req["nonce"],
                                      code_challenge=req["code_challenge"])
    return redirect(oauth.with_query(req["redirect_uri"], {"code": code, "state": req["state"],
                                                           "iss": issuer(request)}), status=303)


# -- /token ----------------------------------------------------------------------------------------

def _oauth_error(request: Request, exc: oauth.OAuthError) -> HTTPResponse:
    headers = dict(NO_STORE)
    if exc.status == 401:
        headers["WWW-Authenticate"] = 'Basic realm="herald"'
    return json_response({"error": exc.error, "error_description": exc.description}, status=exc.status,
                         headers=headers)


@bp.post("/token")
async def token(request: Request) -> HTTPResponse:
    form = request.form or {}
    try:
        if not request.content_type.startswith("application/x-www-form-urlencoded"):
            raise oauth.OAuthError("invalid_request", "the body must be application/x-www-form-urlencoded")
        client = await OAuthClient.get_or_none(client_id=form.get("client_id") or "")
        if client is None:
            raise oauth.OAuthError("invalid_client", "unknown client_id", status=401)
        grant = form.get("grant_type")
        if grant == "authorization_code":
            answer = await _exchange_code(request, client, form)
        elif grant == "refresh_token":
            answer = await _refresh(request, client, form)
        else:
            raise oauth.OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
    except oauth.OAuthError as exc:
        return _oauth_error(request, exc)
    return json_response(answer, headers=NO_STORE)


async def _exchange_code(request: Request, client: OAuthClient, form) -> dict:
    code = form.get("code") or ""
    now = datetime.now(timezone.utc)
    async with in_transaction("identity") as conn:
        row = await AuthorizationCode.filter(code_hash=crypto.digest(code)).using_db(conn) \
            .select_for_update().first()
        if row is None or row.client_id != client.id:
            raise oauth.OAuthError("invalid_grant", "the code is not valid")
        if row.used_at is not None:
            reused_session = row.session_id
        else:
            reused_session = None
            await AuthorizationCode.filter(id=row.id).using_db(conn).update(used_at=now)
    if reused_session is not None:
        # A code used twice: someone else may hold it. Revoke what was issued from it.
        async with in_transaction("identity") as conn:
            await revoke(conn, [reused_session])
        raise oauth.OAuthError("invalid_grant", "the code was already used")
    if row.expires_at <= now:
        raise oauth.OAuthError("invalid_grant", "the code has expired")
    if form.get("redirect_uri") != row.redirect_uri:
        raise oauth.OAuthError("invalid_grant", "redirect_uri does not match the authorization request")
    if not oauth.pkce_ok(form.get("code_verifier"), row.code_challenge):
        raise oauth.OAuthError("invalid_grant", "code_verifier does not match the code_challenge")
    session = await Session.get(id=row.session_id)
    if not is_live(session):
        raise oauth.OAuthError("invalid_grant", "the session of this code has ended")
    user = await User.get(id=row.user_id)
    async with in_transaction("identity") as conn:
        return await oauth.token_set(conn, issuer=issuer(request), client=client, user=user, session=session,
                                     scope=row.scope, nonce=row.nonce)


async def _refresh(request: Request, client: OAuthClient, form) -> dict:
    presented = form.get("refresh_token") or ""
    now = datetime.now(timezone.utc)
    async with in_transaction("identity") as conn:
        row = await RefreshToken.filter(token_hash=crypto.digest(presented)).using_db(conn) \
            .select_for_update().first()
        if row is None or row.client_id != client.id:
            raise oauth.OAuthError("invalid_grant", "the refresh token is not valid")
        reuse = row.used_at is not None and row.revoked_at is None
        if reuse:
            await RefreshToken.filter(family=row.family, revoked_at=None).using_db(conn).update(revoked_at=now)
        elif row.revoked_at is None and row.expires_at > now:
            session = await Session.get(id=row.session_id).using_db(conn)
            if is_live(session, now):
                scope = row.scope
                if asked := form.get("scope"):
                    if not set(asked.split()) <= set(row.scope.split()):
                        raise oauth.OAuthError("invalid_scope", "the scope exceeds the original grant")
                    scope = " ".join(s for s in row.scope.split() if s in asked.split())
                await RefreshToken.filter(id=row.id).using_db(conn).update(used_at=now)
                user = await User.get(id=row.user_id).using_db(conn)
                return await oauth.token_set(conn, issuer=issuer(request), client=client, user=user, session=session,
                                             scope=scope, nonce=None, family=row.family)
    if reuse:
        raise oauth.OAuthError("invalid_grant", "the refresh token was already used; its family is revoked")
    raise oauth.OAuthError("invalid_grant", "the refresh token has expired or was revoked")


# -- /userinfo and /logout -------------------------------------------------------------------------

def _invalid_token(description: str) -> HTTPResponse:
    return json_response({"error": "invalid_token", "error_description": description}, status=401,
                         headers={"WWW-Authenticate": f'Bearer error="invalid_token", error_description="{description}"',
                                  **NO_STORE})


async def _access_session(request: Request, token: str) -> tuple[dict, Session]:
    claims = await keys.verify(token, issuer=issuer(request), typ="at+jwt")
    session = await Session.get_or_none(public_id=claims.get("sid")).select_related("user")
    if session is None or not is_live(session) or session.user.public_id != claims["sub"]:
        raise jwt.InvalidTokenError("the session of this token has ended")
    return claims, session


@bp.route("/userinfo", methods=["GET", "POST"])
async def userinfo(request: Request) -> HTTPResponse:
    token = bearer(request)
    if not token:
        return _invalid_token("a Bearer access token is required")
    try:
        _, session = await _access_session(request, token)
    except jwt.InvalidTokenError as exc:
        return _invalid_token("the access token is not valid" if not isinstance(exc, jwt.ExpiredSignatureError)
                              else "the access token has expired")
    user = session.user
    return json_response({"sub": user.public_id, "email": user.email,
                          "email_verified": user.email_verified_at is not None, "name": user.name},
                         headers=NO_STORE)


@bp.get("/logout", ctx_query=("id_token_hint", "post_logout_redirect_uri", "state", "client_id"))
async def logout(request: Request) -> HTTPResponse:
    """Ends the session of a Bearer token (a session token or an access token); or, for a
    browser, the session named by ``id_token_hint``, then returns to a registered
    ``post_logout_redirect_uri``."""
    token = bearer(request)
    back = None
    try:
        if token and token.startswith(TOKEN_PREFIX):
            session = await session_of_token(token, touch=False)
        elif token:
            _, session = await _access_session(request, token)
        elif hint := request.args.get("id_token_hint"):
            claims = await keys.verify(hint, issuer=issuer(request), verify_exp=False)
            client = await OAuthClient.get_or_none(client_id=claims.get("aud"))
            wanted = request.args.get("post_logout_redirect_uri")
            if wanted and client is not None and wanted in client.post_logout_redirect_uris:
                back = oauth.with_query(wanted, {"state": request.args.get("state")})
            session = await Session.get_or_none(public_id=claims.get("sid"))
            if session is None:
                raise jwt.InvalidTokenError("unknown session")
        else:
            return _invalid_token("a Bearer token is required")
    except (jwt.InvalidTokenError, errors.Unauthorized):
        return _invalid_token("the token is not valid")
    async with in_transaction("identity") as conn:
        await revoke(conn, [session.id])
    if back:
        return redirect(back, status=303)
    return reply(request, {"logged_out": True})
