"""The usage answer as the CRM writes it."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, described, reply_of, shape

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


_MONTH = "in the month"
USAGE = reply_of(
    periodo=described(STRING, "The month counted (`YYYY-MM`)."),
    local=described(shape(
        contatos=described(INTEGER, "Contacts the account has now."),
        contatos_criados=described(INTEGER, f"Contacts created {_MONTH}."),
        listas=described(INTEGER, "Lists it has now."),
        segmentos=described(INTEGER, "Segments it has now."),
        jornadas=described(INTEGER, "Journeys it has now."),
        destinos=described(INTEGER, "Destinations it has now."),
        integracoes=described(INTEGER, "Conversion integrations it has now."),
        entregas=described(INTEGER, f"Destination and conversion deliveries queued {_MONTH}."),
        entregas_falhas=described(INTEGER, "Those of them that failed for good.")),
        "Counts from the CRM's own database."),
    core_disponivel=described({"type": "boolean"}, "Whether the platform answered; when false `core` is null."),
    core=described({"oneOf": [{"type": "null"}, shape(
        cota_mensal=described({"type": ["integer", "null"]},
                              "The account's monthly message quota, or null for no limit."),
        plano=described(STRING, "The account's plan."),
        emails_enviados=described(INTEGER, f"E-mails sent {_MONTH}."),
        sms_enviados=described(INTEGER, f"SMS sent {_MONTH}."),
        push_enviados=described(INTEGER, f"Push notifications sent {_MONTH}."),
        chamadas_api=described(INTEGER, f"API calls made {_MONTH}."),
        atualizado_em=described({"type": ["string", "null"]}, "When the counters last changed (RFC 3339), or null."))]},
        "The platform's quota and counters for the month, or null when it did not answer."))
