"""The usage answer as the CRM writes it."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, reply_of, shape

INTEGER = {"type": "integer"}


def usage_view(period: str, local: dict[str, int], available: bool, core: dict[str, Any] | None) -> dict[str, Any]:
    answer: dict[str, Any] = {"periodo": period, "local": local, "core_disponivel": available, "core": None}
    if core is not None:
        usage, quota = core.get("Usage") or {}, core.get("Quota") or {}
        answer["core"] = {"cota_mensal": quota.get("MonthlyQuota"), "plano": quota.get("Plan"),
                          "emails_enviados": usage.get("EmailsSent", 0), "sms_enviados": usage.get("SmsSent", 0),
                          "push_enviados": usage.get("PushSent", 0), "chamadas_api": usage.get("ApiCalls", 0),
                          "atualizado_em": usage.get("UpdatedAt")}
    return answer


USAGE = reply_of(
    periodo=STRING,
    local=shape(contatos=INTEGER, contatos_criados=INTEGER, listas=INTEGER, segmentos=INTEGER, jornadas=INTEGER,
                destinos=INTEGER, integracoes=INTEGER, entregas=INTEGER, entregas_falhas=INTEGER),
    core_disponivel={"type": "boolean"},
    core={"oneOf": [{"type": "null"},
                    shape(cota_mensal={"type": ["integer", "null"]}, plano=STRING, emails_enviados=INTEGER,
                          sms_enviados=INTEGER, push_enviados=INTEGER, chamadas_api=INTEGER,
                          atualizado_em={"type": ["string", "null"]})]})
