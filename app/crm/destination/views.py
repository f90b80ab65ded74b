"""Destinations and deliveries as the CRM writes them (a delivery's payload is never shown)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
from kit.timestamps import iso
from models.crm import CrmDelivery, CrmDestination

MS = "milliseconds"
NULLABLE_INT = {"type": ["integer", "null"]}


def destination_view(row: CrmDestination) -> dict[str, Any]:
    return {"id": row.public_id, "url": row.url, "descricao": row.description, "eventos": list(row.events),
            "ativo": row.enabled, "falhas_seguidas": row.consecutive_failures,
            "circuito_aberto_ate": iso(row.breaker_open_until, MS), "ultimo_sucesso_em": iso(row.last_success_at, MS),
            "criado_em": iso(row.created_at, MS), "atualizado_em": iso(row.updated_at, MS)}


def delivery_view(row: CrmDelivery) -> dict[str, Any]:
    return {"id": row.public_id, "evento_id": row.event_id, "evento": row.event_type, "status": row.status,
            "teste": row.test, "tentativas": row.attempts, "proxima_tentativa_em": iso(row.next_attempt_at, MS)
            if row.status in ("pending", "retrying") else None,
            "ultima_tentativa_em": iso(row.last_attempt_at, MS), "ultimo_status_http": row.last_status_code,
            "ultimo_erro": row.last_error, "duracao_ms": row.duration_ms, "criada_em": iso(row.created_at, MS),
            "atualizada_em": iso(row.updated_at, MS)}


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described; a delivery
# is the same for a destination and a conversion integration (app/crm/integration/v1.py).
_MOMENT = "(RFC 3339, to the millisecond)"
_DESTINATION = shape(
    id=described(STRING, "The destination's id (`dst_...`)."),
    url=described(STRING, "Where the CRM's events are POSTed, signed."),
    descricao=described(STRING, "Your note on it."),
    eventos=described({"type": "array", "items": STRING}, "The event types it receives."),
    ativo=described({"type": "boolean"}, "Whether events are delivered to it."),
    falhas_seguidas=described({"type": "integer"}, "Failed attempts in a row."),
    circuito_aberto_ate=described(NULLABLE_STRING, f"While its circuit is open (after 5 failures in a row), until "
                                                   f"when no request goes to it {_MOMENT}."),
    ultimo_sucesso_em=described(NULLABLE_STRING, f"The last successful delivery {_MOMENT}, or null."),
    criado_em=described(STRING, f"When it was created {_MOMENT}."),
    atualizado_em=described(STRING, f"When it last changed {_MOMENT}."))
_DELIVERY = shape(
    id=described(STRING, "The delivery's id (`dlv_...`)."),
    evento_id=described(STRING, "The event's id (`evt_...`): the same on every retry."),
    evento=described(STRING, "The event's type (`contact.created` ...)."),
    status=described(STRING, "`pending`, `delivering`, `retrying`, `succeeded` or `failed`."),
    teste=described({"type": "boolean"}, "Whether it is a test event (one attempt, never retried)."),
    tentativas=described({"type": "integer"}, "Attempts made so far (at most 8)."),
    proxima_tentativa_em=described(NULLABLE_STRING, f"While `pending` or `retrying`, when the next attempt is due "
                                                    f"{_MOMENT}."),
    ultima_tentativa_em=described(NULLABLE_STRING, f"When the last attempt was made {_MOMENT}, or null."),
    ultimo_status_http=described(NULLABLE_INT, "The HTTP status of the last answer, or null when none came."),
    ultimo_erro=described(NULLABLE_STRING, "Why the last attempt failed, or null."),
    duracao_ms=described(NULLABLE_INT, "How long the last attempt took, in milliseconds."),
    criada_em=described(STRING, f"When it was queued {_MOMENT}."),
    atualizada_em=described(STRING, f"When it last changed {_MOMENT}."))
DESTINATION = reply_of(destino=described(_DESTINATION, "The destination."))
DESTINATION_WITH_SECRET = reply_of(
    destino=described(_DESTINATION, "The destination."),
    segredo=described(STRING, "Its signing secret (`whsec_...`): shown here once, never again."))
DESTINATIONS = reply_of(
    destinos=described({"type": "array", "items": _DESTINATION}, "The destinations, newest first."),
    proximo_cursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
    tem_mais=described({"type": "boolean"}, "Whether there is a next page."))
DELIVERIES = reply_of(entregas=described({"type": "array", "items": _DELIVERY},
                                         "The latest deliveries, newest first (never their payload)."))
QUEUED = reply_of(entrega=described(_DELIVERY, "The test delivery, queued."))
