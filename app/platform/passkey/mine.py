"""The person's own passkeys: ``/api/me/passkeys`` (list, register in two steps, rename, remove), through
the identity server's ``/v1/passkeys`` on their session.

Adding a passkey adds a way in, and removing one changes how the account is reached: both need a
recent re-authentication of the session, enforced by the identity server where the passkeys live
and relayed as 403 ``ReauthRequired`` with the dashboard's ``Details``. The registration ceremony
runs in the browser (``navigator.credentials.create`` with ``opcoes``) at an origin of the
dashboard or of the console (:func:`ceremony_origins`); the identity server checks the answer's
origin and RP id (``WEBAUTHN_RP_ID``) against its relying party.
"""

from __future__ import annotations

import re

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, NULLABLE_STRING, STRING, TIMESTAMP, answers, described, reply_of, shape
from app.http.responses import no_content, reply
from app.platform.gate import api as gate
from app.platform.passkey.schemas import NewPasskeyBody, NewPasskeyStartBody, RemoveBody, RenameBody
from app.platform.session.api import identity
from app.platform.session.service import call
from kit.settings import Settings

bp = Blueprint("platform_dashboard_my_passkeys")
PASSKEY_ID = re.compile(r"pky_[0-9a-f]{24}")
ERRORS = (403, 429, 502)

PASSKEY = shape(id=described(STRING, "The passkey's id (pky_...)."),
                nome=described(STRING, "The name the person gave it; empty when none."),
                criada_em=described(TIMESTAMP, "When it was registered."),
                usada_em=described(NULLABLE_STRING, "When it was last used to sign in; null when never."),
                sincronizada=described({"type": "boolean"}, "Whether it is backed up (synced by its provider)."))
PASSKEYS = reply_of(passkeys=described({"type": "array", "items": PASSKEY}, "The person's passkeys, oldest first."))
ONE = reply_of(passkey=described(PASSKEY, "The passkey."))
STARTED = reply_of(desafio_id=described(STRING, "The challenge's id, to send back with the browser's answer."),
                   opcoes=described({"type": "object"},
                                    "The WebAuthn creation options for navigator.credentials.create."))


def ceremony_origins(settings: Settings) -> frozenset[str]:
    """Where a passkey ceremony may run: the dashboard's origins and the console's."""
    return gate.allowed_origins(settings) | {gate.origin_of(settings.url_of("console"))}


def passkey_json(row: dict) -> dict:
    return {"id": row.get("id"), "nome": row.get("name") or "", "criada_em": row.get("created_at"),
            "usada_em": row.get("last_used_at"), "sincronizada": row.get("backed_up") is True}


def _who(request: Request):
    principal = gate.principal(request)
    return identity(request), gate.caller(request), principal.token


@bp.get("/api/me/passkeys", ctx_auth="session", ctx_responses=answers({200: PASSKEYS}), ctx_errors=(502,))
async def list_passkeys(request: Request) -> HTTPResponse:
    """The person's passkeys, oldest first."""
    client, caller, token = _who(request)
    body = await call(client, caller, "GET", "/v1/passkeys", user_token=token)
    rows = body.get("passkeys")
    if not isinstance(rows, list):
        raise errors.UpstreamError()
    return reply(request, {"passkeys": [passkey_json(row) for row in rows if isinstance(row, dict)]})


@bp.post("/api/me/passkeys/iniciar", ctx_auth="session", ctx_body=NewPasskeyStartBody, ctx_responses=answers({200: STARTED}),
         ctx_errors=ERRORS)
async def start(request: Request) -> HTTPResponse:
    """WebAuthn creation options for ``navigator.credentials.create``; re-authenticated."""
    body = parse_body(request, NewPasskeyStartBody)
    if gate.origin_of(body.origin) not in ceremony_origins(request.app.ctx.settings):
        raise errors.ValidationError("'origin' is not an origin of the dashboard or the console.",
                                     details={"origin": "not a configured relying party origin"})
    client, caller, token = _who(request)
    started = await call(client, caller, "POST", "/v1/passkeys/register/options", json={}, user_token=token)
    if not isinstance(started.get("challenge_id"), str) or not isinstance(started.get("options"), dict):
        raise errors.UpstreamError()
    return reply(request, {"desafio_id": started["challenge_id"], "opcoes": started["options"]})


@bp.post("/api/me/passkeys", ctx_auth="session", ctx_body=NewPasskeyBody, ctx_responses=answers({201: ONE}),
         ctx_errors=(400, 401) + ERRORS)
async def register(request: Request) -> HTTPResponse:
    """The browser's answer to ``opcoes`` (``credencial``) and a name: the new passkey."""
    body = parse_body(request, NewPasskeyBody)
    client, caller, token = _who(request)
    made = await call(client, caller, "POST", "/v1/passkeys/register", user_token=token,
                      json={"challenge_id": body.desafio_id, "credential": body.credencial, "name": body.nome.strip()})
    if not isinstance(made.get("passkey"), dict):
        raise errors.UpstreamError()
    return reply(request, {"passkey": passkey_json(made["passkey"])}, status=201)


@bp.patch("/api/me/passkeys/<passkey_id:str>", ctx_auth="session", ctx_body=RenameBody,
          ctx_responses=answers({200: ONE}), ctx_errors=(400, 404) + ERRORS)
async def rename(request: Request, passkey_id: str) -> HTTPResponse:
    """Gives a passkey a new name (``nome``): a label, so no re-authentication; 404 for a missing
    passkey or another person's."""
    body = parse_body(request, RenameBody)
    name = body.nome.strip()
    if not name:
        raise errors.ValidationError("'nome' must not be empty.", details={"nome": "must not be empty"})
    if not PASSKEY_ID.fullmatch(passkey_id):
        raise errors.NotFound("No such passkey.")
    client, caller, token = _who(request)
    renamed = await call(client, caller, "PATCH", f"/v1/passkeys/{passkey_id}", user_token=token,
                         json={"name": name})
    if not isinstance(renamed.get("passkey"), dict):
        raise errors.UpstreamError()
    return reply(request, {"passkey": passkey_json(renamed["passkey"])})


@bp.delete("/api/me/passkeys/<passkey_id:str>", ctx_auth="session", ctx_optional_body=RemoveBody,
           ctx_responses=answers({204: NO_CONTENT}), ctx_errors=(401, 404) + ERRORS)
async def remove(request: Request, passkey_id: str) -> HTTPResponse:
    """Stops using a passkey: re-authenticated, or with the password (``senha``) in the body."""
    body = parse_body(request, RemoveBody) if (request.body or b"").strip() else RemoveBody()
    if not PASSKEY_ID.fullmatch(passkey_id):
        raise errors.NotFound("No such passkey.")
    client, caller, token = _who(request)
    await call(client, caller, "DELETE", f"/v1/passkeys/{passkey_id}", user_token=token,
               json={"password": body.senha} if body.senha else {})
    return no_content()
