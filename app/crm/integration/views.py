"""Conversion integrations as the CRM writes them (never their access token or API secret)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from kit.timestamps import iso
from models.crm import ConversionIntegration

MS = "milliseconds"


def integration_view(row: ConversionIntegration) -> dict[str, Any]:
    return {"id": row.public_id, "nome": row.name, "tipo": row.kind, "ativo": row.enabled,
            "configuracao": dict(row.config), "mapeamentos": dict(row.mappings),
            "falhas_seguidas": row.consecutive_failures, "circuito_aberto_ate": iso(row.breaker_open_until, MS),
            "ultimo_sucesso_em": iso(row.last_success_at, MS), "criada_em": iso(row.created_at, MS),
            "atualizada_em": iso(row.updated_at, MS)}


_INTEGRATION = shape(id=STRING, nome=STRING, tipo={"type": "string", "enum": ["meta_capi", "ga4"]},
                     ativo={"type": "boolean"}, configuracao={"type": "object"},
                     mapeamentos={"type": "object", "additionalProperties": STRING},
                     falhas_seguidas={"type": "integer"}, circuito_aberto_ate=NULLABLE_STRING,
                     ultimo_sucesso_em=NULLABLE_STRING, criada_em=STRING, atualizada_em=STRING)
INTEGRATION = reply_of(integracao=_INTEGRATION)
INTEGRATIONS = reply_of(integracoes={"type": "array", "items": _INTEGRATION}, proximo_cursor=NULLABLE_STRING,
                        tem_mais={"type": "boolean"})
