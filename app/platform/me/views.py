"""Answers of the ``/api/me`` family (lowercase Portuguese keys, like the contract's ``{ok: true}``
and ``Error.Details``) and of ``/api/auth/me/emails`` (PascalCase): the only place their field
names are spelled."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
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
ACCOUNT = reply_of(id=STRING, email=STRING, nome=STRING, email_verificado=BOOLEAN, criado_em=TIMESTAMP,
                   segundo_fator=shape(status={"enum": ["CONFIRMED", "PENDING", "NONE"]}, metodo=NULLABLE_STRING))
ADDRESS = shape(id=STRING, email=STRING, primario=BOOLEAN, verificado=BOOLEAN, verificado_em=NULLABLE_TIMESTAMP,
                criado_em=TIMESTAMP)
ADDRESSES = reply_of(emails={"type": "array", "items": ADDRESS})
AUTH_ADDRESS = shape(Id=STRING, Email=STRING, Primary=BOOLEAN, Verified=BOOLEAN, VerifiedAt=NULLABLE_TIMESTAMP,
                     CreatedAt=TIMESTAMP)
AUTH_ADDRESSES = reply_of(Emails={"type": "array", "items": AUTH_ADDRESS})
OK = reply_of(ok={"const": True})
STATUS_SENT = reply_of(Status={"const": "sent"})
CODES = reply_of(codigos={"type": "array", "items": {"type": "string", "pattern": "^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$"},
                          "minItems": 10, "maxItems": 10})
EVENT = shape(id=STRING, tipo=STRING, ip=STRING, user_agent=STRING, detalhes={"type": "object"}, criado_em=TIMESTAMP)
EVENTS = reply_of(eventos={"type": "array", "items": EVENT}, NextCursor=NULLABLE_STRING, HasMore=BOOLEAN)
METHODS = {"type": "array", "items": shape("motivo", metodo=STRING, disponivel=BOOLEAN, motivo=NULLABLE_STRING)}
DESTINATIONS = {"type": "array", "items": shape(email_id=STRING, mascarado=STRING, primario=BOOLEAN)}
REAUTH_STATE = {**reply_of(recente=BOOLEAN, metodo=NULLABLE_STRING, reautenticado_em=TIMESTAMP, valido_ate=TIMESTAMP,
                           metodos_aceitos={"type": "array", "items": STRING}, metodos=METHODS,
                           validade_segundos={"type": "integer"}, destinos=DESTINATIONS)}
REAUTH_STATE["required"] = [name for name in REAUTH_STATE["required"] if name != "destinos"]
REAUTH_DONE = reply_of(metodo=STRING, reautenticado_em=TIMESTAMP, valido_ate=TIMESTAMP)
REAUTH_STARTED = shape("opcoes", "destino", "expira_em_segundos", metodo=STRING, desafio_id=STRING,
                       opcoes={"type": "object"}, destino=shape(email_id=STRING, mascarado=STRING),
                       expira_em_segundos={"type": "integer"}, RequestId=STRING)
