"""Journeys and enrollments as the CRM writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
from kit.timestamps import iso
from models.crm import Enrollment, EnrollmentStep, Journey

MS = "milliseconds"
BOOLEAN = {"type": "boolean"}
OBJECT = {"type": "object"}
NULLABLE_OBJECT = {"type": ["object", "null"]}


def journey_view(row: Journey, problems: dict[str, str]) -> dict[str, Any]:
    return {"id": row.public_id, "nome": row.name, "ativa": row.active, "gatilho": row.trigger or None,
            "passos": row.steps or [], "fuso_horario": row.timezone, "horario_silencioso": row.quiet_hours,
            "permite_reentrada": row.allow_reentry, "modo": row.mode,
            "problemas": [{"campo": field, "motivo": reason} for field, reason in problems.items()],
            "ativada_em": iso(row.activated_at, MS), "criado_em": iso(row.created_at, MS),
            "atualizado_em": iso(row.updated_at, MS)}


def step_view(row: EnrollmentStep) -> dict[str, Any]:
    return {"ordem": row.ordinal, "passo_id": row.step_id, "tipo": row.kind, "resultado": row.outcome,
            "motivo": row.reason, "detalhes": row.detail or {}, "executado_em": iso(row.executed_at, MS)}


def enrollment_view(row: Enrollment, journey: Journey, contact_id: str, steps: list[EnrollmentStep]) -> dict[str, Any]:
    current = None
    if row.state in ("em_andamento", "aguardando") and row.position < len(journey.steps or []):
        current = journey.steps[row.position]["id"]
    return {"id": row.public_id, "contato_id": contact_id, "estado": row.state, "passo_atual": current,
            "passos_executados": row.executed, "aguardando_ate": iso(row.wake_at, MS), "motivo": row.reason,
            "entrou_em": iso(row.entered_at, MS), "atualizado_em": iso(row.updated_at, MS),
            "concluida_em": iso(row.finished_at, MS), "historico": [step_view(step) for step in steps]}


_PROBLEM = shape(campo=STRING, motivo=STRING)
_JOURNEY = shape(id=STRING, nome=STRING, ativa=BOOLEAN, gatilho=NULLABLE_OBJECT, passos={"type": "array"},
                 fuso_horario=STRING, horario_silencioso=NULLABLE_OBJECT, permite_reentrada=BOOLEAN, modo=STRING,
                 problemas={"type": "array", "items": _PROBLEM}, ativada_em=NULLABLE_STRING, criado_em=STRING,
                 atualizado_em=STRING)
_STEP = shape(ordem={"type": "integer"}, passo_id=STRING, tipo=STRING, resultado=STRING, motivo=NULLABLE_STRING,
              detalhes=OBJECT, executado_em=STRING)
_ENROLLMENT = shape(id=STRING, contato_id=STRING, estado=STRING, passo_atual=NULLABLE_STRING,
                    passos_executados={"type": "integer"}, aguardando_ate=NULLABLE_STRING, motivo=NULLABLE_STRING,
                    entrou_em=STRING, atualizado_em=STRING, concluida_em=NULLABLE_STRING,
                    historico={"type": "array", "items": _STEP})
_CURSOR = {"proximo_cursor": NULLABLE_STRING, "tem_mais": BOOLEAN}
JOURNEY = reply_of(jornada=_JOURNEY)
JOURNEYS = reply_of(jornadas={"type": "array", "items": _JOURNEY}, **_CURSOR)
ENROLLMENTS = reply_of(inscricoes={"type": "array", "items": _ENROLLMENT}, **_CURSOR)


def contact_journey_view(row: Enrollment, journey: Journey) -> dict[str, Any]:
    return {"id": row.public_id, "jornada_id": journey.public_id, "jornada_nome": journey.name, "estado": row.state,
            "passos_executados": row.executed, "motivo": row.reason, "entrou_em": iso(row.entered_at, MS),
            "concluida_em": iso(row.finished_at, MS)}


CONTACT_JOURNEYS = reply_of(inscricoes=described({"type": "array", "items": shape(
    id=described(STRING, "The enrollment's id."), jornada_id=described(STRING, "The journey's id."),
    jornada_nome=described(STRING, "The journey's name."),
    estado=described(STRING, "Where it stands: `em_andamento`, `aguardando`, `concluida`, `falhou` or `cancelada`."),
    passos_executados=described({"type": "integer"}, "Steps the contact has been through."),
    motivo=described(NULLABLE_STRING, "Why it ended, when it ended early."),
    entrou_em=described(STRING, "When the contact entered."),
    concluida_em=described(NULLABLE_STRING, "When it ended, or null."))},
    "The contact's latest 50 enrollments, newest first."))
