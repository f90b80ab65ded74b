"""Alerts and their events as the CRM writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from kit.timestamps import iso
from models.crm import CrmAlert, CrmAlertEvent
from models.crm.alert import AlertMetric

MS = "milliseconds"
NULLABLE_NUMBER = {"type": ["number", "null"]}


def alert_view(row: CrmAlert) -> dict[str, Any]:
    return {"id": row.public_id, "nome": row.name, "metrica": row.metric, "limite": row.threshold,
            "janela_minutos": row.window_minutes, "ativo": row.enabled, "estado": row.state,
            "estado_desde": iso(row.state_changed_at, MS), "ultimo_valor": row.last_value,
            "avaliado_em": iso(row.last_evaluated_at, MS), "criado_em": iso(row.created_at, MS),
            "atualizado_em": iso(row.updated_at, MS)}


def event_view(row: CrmAlertEvent) -> dict[str, Any]:
    return {"id": row.public_id, "alerta_id": row.alert_public_id,
            "alerta_nome": row.alert_name, "metrica": row.metric, "tipo": row.kind, "valor": row.value,
            "limite": row.threshold, "em": iso(row.created_at, MS)}


_ALERT = shape(id=STRING, nome=STRING, metrica={"type": "string", "enum": [m.value for m in AlertMetric]},
               limite={"type": "number"}, janela_minutos={"type": "integer"}, ativo={"type": "boolean"},
               estado={"type": "string", "enum": ["calm", "firing"]}, estado_desde=NULLABLE_STRING,
               ultimo_valor=NULLABLE_NUMBER, avaliado_em=NULLABLE_STRING, criado_em=STRING, atualizado_em=STRING)
_EVENT = shape(id=STRING, alerta_id=STRING, alerta_nome=STRING, metrica=STRING,
               tipo={"type": "string", "enum": ["disparou", "normalizou", "reiniciado"]}, valor=NULLABLE_NUMBER,
               limite={"type": "number"}, em=STRING)
ALERT = reply_of(alerta=_ALERT)
ALERTS = reply_of(alertas={"type": "array", "items": _ALERT}, proximo_cursor=NULLABLE_STRING,
                  tem_mais={"type": "boolean"})
EVENTS = reply_of(eventos={"type": "array", "items": _EVENT}, proximo_cursor=NULLABLE_STRING,
                  tem_mais={"type": "boolean"})
