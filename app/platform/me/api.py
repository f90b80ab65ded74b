"""The person's own account (session): the ``/api/me`` family and ``/api/auth/me/emails``.

Each route parses, asks the identity server through service.py and answers through views.py.
Writes that could hand the account over need a recent re-authentication (service.py says where
it is enforced); ``POST /api/me/reautenticar/iniciar`` and ``POST /api/me/reautenticar`` are how a
person gives one (docs/dashboard.md, "Re-authentication")."""

from __future__ import annotations

import re

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.query import int_param
from app.http.responses import no_content, reply
from app.platform.me import service, views
from app.platform.me.schemas import AddressBody, AuthAddressBody, ProfileBody, ReauthBody, StartBody
from app.platform.gate import api as gate
from app.platform.passkey.mine import ceremony_origins
from app.platform.session.errors import OwnSessionRequired
from app.platform.session.api import identity

bp = Blueprint("platform_dashboard_me")

EVENT_ID = re.compile(r"evt_[0-9a-f]{24}")
REAUTH_ERRORS = (403, 429, 502)


def _who(request: Request):
    principal = gate.principal(request)
    return identity(request), gate.caller(request), principal


# -- /api/me --------------------------------------------------------------------------------------

@bp.get("/api/me", ctx_auth="session", ctx_responses=answers({200: views.ACCOUNT}), ctx_errors=(502,))
async def account(request: Request) -> HTTPResponse:
    """The person's account: address, name, verification, second factor."""
    client, caller, principal = _who(request)
    user, factor = await service.account(client, caller, principal.token, principal.user_id)
    return reply(request, views.account_json(user, factor))


@bp.patch("/api/me", ctx_auth="session", ctx_body=ProfileBody, ctx_responses=answers({200: views.ACCOUNT}),
          ctx_errors=REAUTH_ERRORS)
async def rename(request: Request) -> HTTPResponse:
    """Changes the name (``{nome}``); needs a recent re-authentication."""
    body = parse_body(request, ProfileBody)
    if not body.nome.strip():
        raise errors.ValidationError("'nome' must not be empty.", details={"nome": "must not be empty"})
    client, caller, principal = _who(request)
    await service.rename(client, caller, principal.token, principal.user_id, body.nome.strip())
    user, factor = await service.account(client, caller, principal.token, principal.user_id)
    return reply(request, views.account_json(user, factor))


@bp.post("/api/me/codigos-recuperacao", ctx_auth="session", ctx_responses=answers({200: views.CODES}),
         ctx_errors=(403, 409, 502), ctx_idempotency=False)
async def recovery_codes(request: Request) -> HTTPResponse:
    """Ten new recovery codes, shown once; the earlier ones stop working. Needs a recent
    re-authentication by app code (``totp``) or e-mailed code (``email_otp``). Its answer is never
    kept for an Idempotency-Key replay (``ctx_idempotency=False``): the codes are shown once."""
    client, caller, principal = _who(request)
    return reply(request, {"codigos": await service.recovery_codes(client, caller, principal.token)})


@bp.get("/api/me/emails", ctx_auth="session", ctx_responses=answers({200: views.ADDRESSES}), ctx_errors=(502,))
async def addresses(request: Request) -> HTTPResponse:
    """List the signed-in person's e-mail addresses.

    Any session. 502 when the identity server fails."""
    client, caller, principal = _who(request)
    rows = await service.addresses(client, caller, principal.token)
    return reply(request, {"emails": [views.address_json(row) for row in rows]})


@bp.post("/api/me/emails", ctx_auth="session", ctx_body=AddressBody, ctx_responses=answers({202: views.OK}),
         ctx_errors=REAUTH_ERRORS + (409,))
async def add_address(request: Request) -> HTTPResponse:
    """Add a recovery e-mail address.

    Adds a recovery address (its verification link is e-mailed); the same answer whether the
    address is new or already the person's. 429 ``TooManyAttempts`` past 10 a day."""
    body = parse_body(request, AddressBody)
    client, caller, principal = _who(request)
    await service.add_address(client, caller, principal.token, body.email)
    return reply(request, {"ok": True}, status=202)


@bp.delete("/api/me/emails/<email_id:str>", ctx_auth="session", ctx_responses=answers({204: NO_CONTENT}),
           ctx_errors=(403, 409, 502))
async def remove_address(request: Request, email_id: str) -> HTTPResponse:
    """Remove one of the signed-in person's e-mail addresses.

    Any session; 204 when done. 409 when the address cannot be removed (the primary one); 403 in a support session; 502
    when the identity server fails."""
    client, caller, principal = _who(request)
    await service.remove_address(client, caller, principal.token, email_id)
    return no_content()


@bp.post("/api/me/emails/<email_id:str>/primario", ctx_auth="session", ctx_responses=answers({200: views.ADDRESSES}),
         ctx_errors=(403, 409, 502))
async def make_primary(request: Request, email_id: str) -> HTTPResponse:
    """Makes a verified address primary (sign-in, codes and resets go to it)."""
    client, caller, principal = _who(request)
    rows = await service.make_primary(client, caller, principal.token, email_id)
    return reply(request, {"emails": [views.address_json(row) for row in rows]})


@bp.post("/api/me/emails/<email_id:str>/reenviar", name="reenviar", ctx_auth="session",
         ctx_responses=answers({204: NO_CONTENT}),
         ctx_errors=(422, 429, 502))
async def resend_address_verification(request: Request, email_id: str) -> HTTPResponse:
    """The address's verification link again; 422 ``EnderecoNaoRecebe`` when it is verified."""
    client, caller, principal = _who(request)
    await service.resend_address_verification(client, caller, principal.token, email_id)
    return no_content()


@bp.get("/api/me/eventos", ctx_auth="session", ctx_query=("antes", "limite"),
        ctx_responses=answers({200: views.EVENTS}), ctx_errors=(403, 502))
async def events(request: Request) -> HTTPResponse:
    """List the signed-in person's security events.

    The security trail, newest first: ``limite`` (1 to 100, default 20) events before the
    event ``antes`` (the previous page's ``NextCursor``). Not inside a support session: 403
    ``SessaoNecessaria`` (the gate keeps the support session on ``request.ctx.support``)."""
    if getattr(request.ctx, "support", None) is not None:
        raise OwnSessionRequired()
    before = request.args.get("antes") or None
    if before is not None and not EVENT_ID.fullmatch(before):
        raise errors.Unprocessable("'antes' is not an event id.", details={"antes": "not an event id"})
    limit = int_param(request, "limite", default=service.EVENTS_DEFAULT, low=1, high=service.EVENTS_MAX)
    client, caller, principal = _who(request)
    page = await service.events(client, caller, principal.token, before, limit)
    return reply(request, views.events_json(page))


# -- re-authentication ----------------------------------------------------------------------------

@bp.get("/api/me/reautenticar", ctx_auth="session", ctx_query=("aceitos",),
        ctx_responses=answers({200: views.REAUTH_STATE}), ctx_errors=(403, 502))
async def reauth_state(request: Request) -> HTTPResponse:
    """Tell whether the session re-authenticated lately.

    Whether the session re-authenticated lately (by one of ``aceitos``, comma-separated; any
    method by default) and what the person can present."""
    accepted = tuple(part for part in (request.args.get("aceitos") or "").split(",") if part) or service.ANY
    if any(name not in service.ANY for name in accepted):
        raise errors.Unprocessable(f"'aceitos' names methods among {', '.join(service.ANY)}.",
                                   details={"aceitos": "unknown method"})
    client, caller, principal = _who(request)
    state = await service.reauth_status(client, caller, principal.token, accepted)
    return reply(request, views.reauth_state_json(state))


@bp.post("/api/me/reautenticar/iniciar", ctx_auth="session", ctx_body=StartBody,
         ctx_responses=answers({200: views.REAUTH_STARTED}), ctx_errors=(404, 429, 502))
async def start_reauth(request: Request) -> HTTPResponse:
    """Start a re-authentication that needs a step first (an e-mailed code, a passkey).

    Starts a re-authentication that needs a step first: ``email_otp`` e-mails a code to the
    verified address ``email_id``; ``passkey`` answers WebAuthn options (``origin`` must be the
    dashboard's)."""
    body = parse_body(request, StartBody)
    if body.metodo == "passkey" and gate.origin_of(body.origin or "") not in ceremony_origins(
            request.app.ctx.settings):
        raise errors.ValidationError("'origin' is not an origin of the dashboard or the console.",
                                     details={"origin": "not a configured relying party origin"})
    client, caller, principal = _who(request)
    started = await service.start_reauth(client, caller, principal.token, body.metodo, body.email_id)
    return reply(request, views.reauth_started_json(started))


@bp.post("/api/me/reautenticar", ctx_auth="session", ctx_body=ReauthBody,
         ctx_responses=answers({200: views.REAUTH_DONE}), ctx_errors=(401, 429, 502))
async def reauthenticate(request: Request) -> HTTPResponse:
    """Re-authenticate: present a credential again on this session.

    Presents a credential again on this session: ``password`` (``senha``, plus ``codigo`` or
    ``codigo_recuperacao`` when the account has an app), ``totp`` (``codigo``), ``email_otp``
    (``desafio_id`` and ``codigo``) or ``passkey`` (``desafio_id`` and ``credencial``)."""
    body = parse_body(request, ReauthBody)
    client, caller, principal = _who(request)
    done = await service.reauthenticate(client, caller, principal.token, {
        "method": body.metodo, "password": body.senha, "code": body.codigo, "recovery_code": body.codigo_recuperacao,
        "challenge_id": body.desafio_id, "credential": body.credencial})
    return reply(request, views.reauth_done_json(done))


# -- /api/auth/me/emails --------------------------------------------------------------------------

@bp.get("/api/auth/me/emails", ctx_auth="session", ctx_responses=answers({200: views.AUTH_ADDRESSES}),
        ctx_errors=(502,))
async def auth_addresses(request: Request) -> HTTPResponse:
    """The person's e-mail addresses: the primary first, then the recovery addresses."""
    client, caller, principal = _who(request)
    rows = await service.addresses(client, caller, principal.token)
    return reply(request, {"Emails": [views.auth_address_json(row) for row in rows]})


@bp.post("/api/auth/me/emails", ctx_auth="session", ctx_body=AuthAddressBody,
         ctx_responses=answers({202: views.STATUS_SENT}), ctx_errors=REAUTH_ERRORS + (409,))
async def auth_add_address(request: Request) -> HTTPResponse:
    """Adds a recovery address (``{Email}``); its verification link is e-mailed."""
    body = parse_body(request, AuthAddressBody)
    client, caller, principal = _who(request)
    await service.add_address(client, caller, principal.token, body.email)
    return reply(request, {"Status": "sent"}, status=202)


@bp.delete("/api/auth/me/emails/<email_id:str>", ctx_auth="session", ctx_responses=answers({204: NO_CONTENT}),
           ctx_errors=(403, 409, 502))
async def auth_remove_address(request: Request, email_id: str) -> HTTPResponse:
    """Remove one of the signed-in person's e-mail addresses.

    Any session; 204 when done. 409 when the address cannot be removed (the primary one); 403 in a support session; 502
    when the identity server fails."""
    client, caller, principal = _who(request)
    await service.remove_address(client, caller, principal.token, email_id)
    return no_content()


@bp.post("/api/auth/me/emails/<email_id:str>/primary", ctx_auth="session",
         ctx_responses=answers({200: views.AUTH_ADDRESSES}), ctx_errors=(403, 409, 502))
async def auth_make_primary(request: Request, email_id: str) -> HTTPResponse:
    """Make one of the signed-in person's e-mail addresses their primary one; answers the addresses.

    Any session. 409 when the address cannot be primary (not verified); 403 in a support session; 502 when the identity
    server fails."""
    client, caller, principal = _who(request)
    rows = await service.make_primary(client, caller, principal.token, email_id)
    return reply(request, {"Emails": [views.auth_address_json(row) for row in rows]})


@bp.post("/api/auth/me/emails/<email_id:str>/verify/resend", ctx_auth="session",
         ctx_responses=answers({200: views.STATUS_SENT}), ctx_errors=(409, 429, 502))
async def auth_resend(request: Request, email_id: str) -> HTTPResponse:
    """The address's verification link again; 409 ``Conflict`` when it is verified."""
    client, caller, principal = _who(request)
    await service.resend_verification(client, caller, principal.token, email_id)
    return reply(request, {"Status": "sent"})
