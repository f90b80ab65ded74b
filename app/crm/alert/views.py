"""Alerts and their events as the CRM writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
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


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described.
_MOMENT = "(RFC 3339, to the millisecond)"
_METRIC = "What it watches: `taxa_descadastro`, `queda_contatos`, `falhas_entrega` or `falhas_jornada` (docs/crm.md)."
_ALERT = shape(
    id=described(STRING, "The alert's id (`alr_...`)."),
    nome=described(STRING, "Its name."),
    metrica=described({"type": "string", "enum": [m.value for m in AlertMetric]}, _METRIC),
    limite=described({"type": "number"}, "The value over which it fires."),
    janela_minutos=described({"type": "integer"}, "The window the metric is measured over, in minutes."),
    ativo=described({"type": "boolean"}, "Whether it is evaluated."),
    estado=described({"type": "string", "enum": ["calm", "firing"]}, "`firing` while the metric is over the "
                                                                     "threshold, else `calm`."),
    estado_desde=described(NULLABLE_STRING, f"When it entered its state {_MOMENT}, or null."),
    ultimo_valor=described(NULLABLE_NUMBER, "The metric's value at the last evaluation, or null."),
    avaliado_em=described(NULLABLE_STRING, f"When it was last evaluated {_MOMENT}, or null."),
    criado_em=described(STRING, f"When it was created {_MOMENT}."),
    atualizado_em=described(STRING, f"When it last changed {_MOMENT}."))
_EVENT = shape(
    id=described(STRING, "The event's id (`ale_...`)."),
    alerta_id=described(STRING, "The alert's id."),
    alerta_nome=described(STRING, "The alert's name when it happened."),
    metrica=described(STRING, "The metric the alert watched."),
    tipo=described({"type": "string", "enum": ["disparou", "normalizou", "reiniciado"]},
                   "`disparou` (went over), `normalizou` (came back under) or `reiniciado` (an edit put it back "
                   "to calm)."),
    valor=described(NULLABLE_NUMBER, "The metric's value then, or null."),
    limite=described({"type": "number"}, "The threshold then."),
    em=described(STRING, f"When it happened {_MOMENT}."))
_CURSOR = {"proximo_cursor": described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
           "tem_mais": described({"type": "boolean"}, "Whether there is a next page.")}
ALERT = reply_of(alerta=described(_ALERT, "The alert."))
ALERTS = reply_of(alertas=described({"type": "array", "items": _ALERT}, "The alerts, newest first."), **_CURSOR)
EVENTS = reply_of(eventos=described({"type": "array", "items": _EVENT},
                                   "The firing history, newest first (deleted alerts included)."), **_CURSOR)
