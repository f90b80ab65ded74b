"""Destinations and deliveries as the CRM writes them (a delivery's payload is never shown)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
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


_DESTINATION = shape(id=STRING, url=STRING, descricao=STRING, eventos={"type": "array", "items": STRING},
                     ativo={"type": "boolean"}, falhas_seguidas={"type": "integer"},
                     circuito_aberto_ate=NULLABLE_STRING, ultimo_sucesso_em=NULLABLE_STRING, criado_em=STRING,
                     atualizado_em=STRING)
_DELIVERY = shape(id=STRING, evento_id=STRING, evento=STRING, status=STRING, teste={"type": "boolean"},
                  tentativas={"type": "integer"}, proxima_tentativa_em=NULLABLE_STRING,
                  ultima_tentativa_em=NULLABLE_STRING, ultimo_status_http=NULLABLE_INT, ultimo_erro=NULLABLE_STRING,
                  duracao_ms=NULLABLE_INT, criada_em=STRING, atualizada_em=STRING)
DESTINATION = reply_of(destino=_DESTINATION)
DESTINATION_WITH_SECRET = reply_of(destino=_DESTINATION, segredo=STRING)
DESTINATIONS = reply_of(destinos={"type": "array", "items": _DESTINATION}, proximo_cursor=NULLABLE_STRING,
                        tem_mais={"type": "boolean"})
DELIVERIES = reply_of(entregas={"type": "array", "items": _DELIVERY})
QUEUED = reply_of(entrega=_DELIVERY)
