"""Conversion integrations as the CRM writes them (never their access token or API secret)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
from kit.timestamps import iso
from models.crm import ConversionIntegration

MS = "milliseconds"


def integration_view(row: ConversionIntegration) -> dict[str, Any]:
    return {"id": row.public_id, "nome": row.name, "tipo": row.kind, "ativo": row.enabled,
            "configuracao": dict(row.config), "mapeamentos": dict(row.mappings),
            "falhas_seguidas": row.consecutive_failures, "circuito_aberto_ate": iso(row.breaker_open_until, MS),
            "ultimo_sucesso_em": iso(row.last_success_at, MS), "criada_em": iso(row.created_at, MS),
            "atualizada_em": iso(row.updated_at, MS)}


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described.
_MOMENT = "(RFC 3339, to the millisecond)"
_INTEGRATION = shape(
    id=described(STRING, "The integration's id (`cvi_...`)."),
    nome=described(STRING, "Its name."),
    tipo=described({"type": "string", "enum": ["meta_capi", "ga4"]},
                   "`meta_capi` (Meta Conversions API) or `ga4` (GA4 Measurement Protocol)."),
    ativo=described({"type": "boolean"}, "Whether events are sent to it."),
    configuracao=described({"type": "object"}, "Its public settings (`pixel_id` and `test_event_code`, or "
                                               "`measurement_id`); the secret is never shown."),
    mapeamentos=described({"type": "object", "additionalProperties": STRING},
                          "CRM event type -> the conversion's event name on the ad platform."),
    falhas_seguidas=described({"type": "integer"}, "Failed attempts in a row."),
    circuito_aberto_ate=described(NULLABLE_STRING, f"While its circuit is open (after 5 failures in a row), until "
                                                   f"when no request goes to it {_MOMENT}."),
    ultimo_sucesso_em=described(NULLABLE_STRING, f"The last successful delivery {_MOMENT}, or null."),
    criada_em=described(STRING, f"When it was created {_MOMENT}."),
    atualizada_em=described(STRING, f"When it last changed {_MOMENT}."))
INTEGRATION = reply_of(integracao=described(_INTEGRATION, "The conversion integration."))
INTEGRATIONS = reply_of(
    integracoes=described({"type": "array", "items": _INTEGRATION}, "The integrations, newest first."),
    proximo_cursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
    tem_mais=described({"type": "boolean"}, "Whether there is a next page."))
