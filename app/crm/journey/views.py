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


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described.
_MOMENT = "(RFC 3339, to the millisecond)"
_MODE = "`teste` (sends go out as the platform's test mode) or `real` (live sends)."
_PROBLEM = shape(campo=described(STRING, "The field the problem is in (`gatilho`, `passos[0].canal` ...)."),
                 motivo=described(STRING, "What it lacks to run."))
_JOURNEY = shape(
    id=described(STRING, "The journey's id (`jrn_...`)."),
    nome=described(STRING, "Its name."),
    ativa=described(BOOLEAN, "Whether it is on: contacts enter it and their steps run."),
    gatilho=described(NULLABLE_OBJECT, "What enrolls a contact: `{\"tipo\": \"lista\" | \"segmento\" | "
                                       "\"formulario\" | \"lead\" | \"evento\", ...}`, or null."),
    passos=described({"type": "array"}, "The steps in order, each with its `id` and `tipo` "
                                        "(`enviar`, `esperar`, `condicao` or `sair`)."),
    fuso_horario=described(STRING, "The IANA time zone its quiet hours are read in."),
    horario_silencioso=described(NULLABLE_OBJECT, "`{\"inicio\": \"HH:MM\", \"fim\": \"HH:MM\"}`: "
                                                  "sends wait until it ends; null for none."),
    permite_reentrada=described(BOOLEAN, "Whether a contact who left may enter again."),
    modo=described(STRING, _MODE),
    problemas=described({"type": "array", "items": _PROBLEM}, "What it still lacks to be turned on; empty when "
                                                              "it can run."),
    ativada_em=described(NULLABLE_STRING, f"When it was last turned on {_MOMENT}, or null."),
    criado_em=described(STRING, f"When it was created {_MOMENT}."),
    atualizado_em=described(STRING, f"When it last changed {_MOMENT}."))
_STEP = shape(
    ordem=described({"type": "integer"}, "Its place in the enrollment's history, from 1."),
    passo_id=described(STRING, "The id of the journey step that ran."),
    tipo=described(STRING, "The step's kind: `enviar`, `esperar`, `condicao` or `sair`."),
    resultado=described(STRING, "`concluido`, `ignorado` or `falhou`."),
    motivo=described(NULLABLE_STRING, "Why it was skipped or failed, or null."),
    detalhes=described(OBJECT, "What the step did (the message sent, the branch taken ...)."),
    executado_em=described(STRING, f"When it ran {_MOMENT}."))
_ENROLLMENT = shape(
    id=described(STRING, "The enrollment's id (`ins_...`)."),
    contato_id=described(STRING, "The enrolled contact's id."),
    estado=described(STRING, "Where it stands: `em_andamento`, `aguardando`, `concluida`, `falhou` or `cancelada`."),
    passo_atual=described(NULLABLE_STRING, "The id of the step due next while it runs or waits, else null."),
    passos_executados=described({"type": "integer"}, "Steps the contact has been through."),
    aguardando_ate=described(NULLABLE_STRING, f"While it waits (a wait step or quiet hours), until when {_MOMENT}."),
    motivo=described(NULLABLE_STRING, "Why it ended, when it ended early."),
    entrou_em=described(STRING, f"When the contact entered {_MOMENT}."),
    atualizado_em=described(STRING, f"When it last moved {_MOMENT}."),
    concluida_em=described(NULLABLE_STRING, f"When it ended {_MOMENT}, or null."),
    historico=described({"type": "array", "items": _STEP}, "The steps it ran, in order."))
_CURSOR = {"proximo_cursor": described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
           "tem_mais": described(BOOLEAN, "Whether there is a next page.")}
JOURNEY = reply_of(jornada=described(_JOURNEY, "The journey."))
_COUNT = {"type": "integer"}
_COUNTS = shape(
    em_andamento=described(_COUNT, "Enrollments with a step due now."),
    aguardando=described(_COUNT, "Enrollments waiting (a wait step or quiet hours)."),
    concluida=described(_COUNT, "Enrollments that went through to the end or an exit."),
    falhou=described(_COUNT, "Enrollments that failed."),
    cancelada=described(_COUNT, "Enrollments cancelled (the journey's steps were edited)."))
_LISTED = {**_JOURNEY, "required": [*_JOURNEY["required"], "inscricoes"], "properties": {
    **_JOURNEY["properties"], "inscricoes": described(_COUNTS, "Its enrollments counted by state (every state, 0 "
                                                               "when none).")}}
JOURNEYS = reply_of(jornadas=described({"type": "array", "items": _LISTED}, "The journeys, newest first."), **_CURSOR)
ENROLLMENTS = reply_of(inscricoes=described({"type": "array", "items": _ENROLLMENT}, "The journey's enrollments."),
                       **_CURSOR)


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
