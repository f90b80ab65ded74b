"""Answers of the ``/api/me`` family (lowercase Portuguese keys, like the contract's ``{ok: true}``
and ``Error.Details``) and of ``/api/auth/me/emails`` (PascalCase): the only place their field
names are spelled."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, REQUEST_ID, STRING, TIMESTAMP, described, reply_of, shape
from app.platform.session.errors import reauth_details

BOOLEAN = {"type": "boolean"}
NULLABLE_TIMESTAMP = {"type": ["string", "null"], "format": "date-time"}
STATUSES = {"confirmed": "CONFIRMED", "pending": "PENDING", "none": "NONE"}


def account_json(user: dict, factor: dict) -> dict:
    return {"id": user.get("id"), "email": user.get("email"), "nome": user.get("name") or "",
            "email_verificado": user.get("email_verified") is True, "criado_em": user.get("created_at"),
            "segundo_fator": {"status": STATUSES.get(factor.get("status"), "NONE"),
                              "metodo": factor.get("method") if factor.get("enabled") else None}}


def address_json(row: dict) -> dict:
    return {"id": row.get("id"), "email": row.get("email"), "primario": row.get("primary") is True,
            "verificado": row.get("verified") is True, "verificado_em": row.get("verified_at"),
            "criado_em": row.get("created_at")}


def auth_address_json(row: dict) -> dict:
    return {"Id": row.get("id"), "Email": row.get("email"), "Primary": row.get("primary") is True,
            "Verified": row.get("verified") is True, "VerifiedAt": row.get("verified_at"),
            "CreatedAt": row.get("created_at")}


def event_json(row: dict) -> dict:
    return {"id": row.get("id"), "tipo": row.get("kind"), "ip": row.get("ip") or "",
            "user_agent": row.get("user_agent") or "", "detalhes": row.get("details") or {},
            "criado_em": row.get("created_at")}


def events_json(page: dict) -> dict:
    """``NextCursor`` (pass it as ``antes``) and ``HasMore``: the contract's paging names."""
    return {"eventos": [event_json(row) for row in page["events"]], "NextCursor": page["next"],
            "HasMore": page["has_more"]}


def reauth_state_json(state: dict) -> dict:
    return {"recente": state.get("recent") is True, "metodo": state.get("method"),
            "reautenticado_em": state.get("reauthenticated_at"), "valido_ate": state.get("reauth_expires_at"),
            **reauth_details(state)}


def reauth_done_json(done: dict) -> dict:
    return {"metodo": done.get("method"), "reautenticado_em": done.get("reauthenticated_at"),
            "valido_ate": done.get("reauth_expires_at")}


def reauth_started_json(started: dict) -> dict:
    body = {"metodo": started.get("method"), "desafio_id": started.get("challenge_id")}
    if isinstance(started.get("options"), dict):
        body["opcoes"] = started["options"]
    destination = started.get("destination")
    if isinstance(destination, dict):
        body["destino"] = {"email_id": destination.get("email_id"), "mascarado": destination.get("masked")}
        body["expira_em_segundos"] = started.get("expires_in")
    return body


# The answers' shapes, for the OpenAPI document.
_METHOD = "password, totp, email_otp or passkey"
_NEXT = described(NULLABLE_STRING, "Give it as antes for the next page; null on the last.")
_MORE = described(BOOLEAN, "Whether there is a next page.")
ACCOUNT = reply_of(
    id=described(STRING, "The person's id (usr_...)."),
    email=described(STRING, "Their primary e-mail address."),
    nome=described(STRING, "Their name; empty when they gave none."),
    email_verificado=described(BOOLEAN, "Whether the primary address is verified."),
    criado_em=described(TIMESTAMP, "When the account was created."),
    segundo_fator=described(shape(
        status=described({"enum": ["CONFIRMED", "PENDING", "NONE"]},
                         "CONFIRMED (on), PENDING (an app set up, not verified) or NONE."),
        metodo=described(NULLABLE_STRING, "The second factor: totp (an app) or email; null when off.")),
        "Their second factor."))
ADDRESS = shape(
    id=described(STRING, "The address's id."),
    email=described(STRING, "The e-mail address."),
    primario=described(BOOLEAN, "Whether it is the primary address (sign-in and notices)."),
    verificado=described(BOOLEAN, "Whether it is verified."),
    verificado_em=described(NULLABLE_TIMESTAMP, "When it was verified; null when not."),
    criado_em=described(TIMESTAMP, "When it was added."))
ADDRESSES = reply_of(emails=described({"type": "array", "items": ADDRESS}, "The person's e-mail addresses."))
AUTH_ADDRESS = shape(
    Id=described(STRING, "The address's id."),
    Email=described(STRING, "The e-mail address."),
    Primary=described(BOOLEAN, "Whether it is the primary address (sign-in and notices)."),
    Verified=described(BOOLEAN, "Whether it is verified."),
    VerifiedAt=described(NULLABLE_TIMESTAMP, "When it was verified; null when not."),
    CreatedAt=described(TIMESTAMP, "When it was added."))
AUTH_ADDRESSES = reply_of(Emails=described({"type": "array", "items": AUTH_ADDRESS}, "The person's e-mail addresses."))
OK = reply_of(ok=described({"const": True}, "Always true: done."))
STATUS_SENT = reply_of(Status=described({"const": "sent"}, "Always sent: the e-mail is on its way."))
CODES = reply_of(codigos=described(
    {"type": "array", "items": {"type": "string", "pattern": "^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$"},
     "minItems": 10, "maxItems": 10}, "Ten new recovery codes, shown once; the old ones stop working."))
EVENT = shape(
    id=described(STRING, "The event's id (evt_...)."),
    tipo=described(STRING, "What happened: login, login_failed, two_factor_failed, logout, session_revoked, "
                           "password_reset, totp_enabled, email_factor_enabled, two_factor_disabled, "
                           "recovery_codes_generated, email_added, email_verified, email_removed, "
                           "email_primary_changed, email_changed, passkey_added, passkey_removed or reauthenticated."),
    ip=described(STRING, "The IP address it came from; empty when unknown."),
    user_agent=described(STRING, "The browser's User-Agent; empty when unknown."),
    detalhes=described({"type": "object"}, "What else the event records (a masked address ...)."),
    criado_em=described(TIMESTAMP, "When it happened."))
EVENTS = reply_of(eventos=described({"type": "array", "items": EVENT}, "The person's security events, newest first."),
                  NextCursor=_NEXT, HasMore=_MORE)
METHODS = described({"type": "array", "items": shape(
    "motivo", metodo=described(STRING, f"The method: {_METHOD}."),
    disponivel=described(BOOLEAN, "Whether the person can use it now."),
    motivo=described(NULLABLE_STRING, "Why not (no app confirmed, no verified address, no passkey); null when "
                                      "available."))}, "The accepted methods and whether each can be used.")
_EMAIL_ID = described(STRING, "The id of a verified address of the person.")
_MASKED = described(STRING, "That address, masked.")
DESTINATIONS = described({"type": "array", "items": shape(
    email_id=_EMAIL_ID, mascarado=_MASKED, primario=described(BOOLEAN, "Whether it is the primary address."))},
    "Where an email_otp code may be sent (when email_otp is accepted).")
_WHEN = described(TIMESTAMP, "When a credential was last presented on this session.")
_UNTIL = described(TIMESTAMP, "Until when writes that need a recent proof are allowed.")
REAUTH_STATE = {**reply_of(
    recente=described(BOOLEAN, "Whether the session's last proof is recent and of an accepted method."),
    metodo=described(NULLABLE_STRING, "How the session last proved who it is."),
    reautenticado_em=_WHEN, valido_ate=_UNTIL,
    metodos_aceitos=described({"type": "array", "items": STRING}, f"The methods accepted: {_METHOD}."),
    metodos=METHODS,
    validade_segundos=described({"type": "integer"}, "How long a re-authentication holds, in seconds."),
    destinos=DESTINATIONS)}
REAUTH_STATE["required"] = [name for name in REAUTH_STATE["required"] if name != "destinos"]
REAUTH_DONE = reply_of(metodo=described(STRING, f"What was presented: {_METHOD}."),
                       reautenticado_em=described(TIMESTAMP, "When it was presented."), valido_ate=_UNTIL)
REAUTH_STARTED = shape(
    "opcoes", "destino", "expira_em_segundos",
    metodo=described(STRING, "The method started: email_otp or passkey."),
    desafio_id=described(STRING, "The challenge's id, to send back with the code or the passkey's answer."),
    opcoes=described({"type": "object"}, "passkey: the WebAuthn request options for navigator.credentials.get."),
    destino=described(shape(email_id=_EMAIL_ID, mascarado=_MASKED), "email_otp: where the code was sent."),
    expira_em_segundos=described({"type": "integer"}, "email_otp: seconds until the code expires."),
    RequestId=REQUEST_ID)
