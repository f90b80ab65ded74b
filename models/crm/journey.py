"""Journeys: an entry trigger and a list of steps, run per contact as an enrollment.

- ``Journey``: ``trigger`` and ``steps`` are the validated JSON of app/crm/journey/schemas.py;
  ``active`` is the state of the contract's Journey row (off/on).
- ``Enrollment``: one contact going through one journey. ``sequence`` is 1 unless the journey allows
  re-entry (then the next number once the previous enrollment ended), so the unique
  (journey, contact, sequence) makes "one enrollment per contact per journey" a database rule.
  ``position`` is the index of the step to run next; ``executed`` counts the steps run so far;
  ``wake_at`` is set while the enrollment waits (a wait step or quiet hours), and
  schedules/crm/journeys.py hands it back to the actor when due.
- ``EnrollmentStep``: one executed step, written in the same transaction that moves ``position``
  and ``executed``; unique (enrollment, ordinal) so a repeated execution of the same step (a worker
  killed after the send, before the commit) cannot record it twice.
"""

from __future__ import annotations

import json
from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.actors import Actor
from models.outbox import insert_sql, request_id
from kit.ids import public_id

PREFIX = "jrn"
ENROLLMENT_PREFIX = "ins"


def new_journey_id() -> str:
    return public_id(PREFIX)


def new_enrollment_id() -> str:
    return public_id(ENROLLMENT_PREFIX)


class EnrollmentState(StrEnum):
    RUNNING = "em_andamento"   # a step is due now (the actor has it)
    WAITING = "aguardando"     # wake_at in the future (wait step or quiet hours)
    DONE = "concluida"         # ran past the last step or reached an exit
    FAILED = "falhou"          # a step failed for good
    CANCELLED = "cancelada"    # the journey was deleted or turned off mid-way


class StepOutcome(StrEnum):
    DONE = "concluido"
    SKIPPED = "ignorado"
    FAILED = "falhou"


class Journey(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    name = fields.CharField(max_length=200)
    trigger: dict = fields.JSONField()
    steps: list = fields.JSONField()
    timezone = fields.CharField(max_length=64, default="UTC")
    quiet_hours: dict | None = fields.JSONField(null=True)
    allow_reentry = fields.BooleanField(default=False)
    mode = fields.CharField(max_length=8, default="teste")
    # Rules compiled to SQL when the journey is saved valid (app/crm/journey): {"segmento": {sql, params}|null,
    # "condicoes": {step_id: {sql, params}}}; a worker runs them as they are (models cannot compile rules).
    compiled: dict | None = fields.JSONField(null=True)
    active = fields.BooleanField(default=False)
    activated_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "journeys"
        app = "crm"
        indexes = (("tenant", "id"),)


class Enrollment(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    journey = fields.ForeignKeyField("crm.Journey", related_name="enrollments", on_delete=fields.CASCADE)
    contact = fields.ForeignKeyField("crm.Contact", related_name="enrollments", on_delete=fields.CASCADE)
    sequence = fields.IntField(default=1)
    state = fields.CharField(max_length=16, default=EnrollmentState.RUNNING.value)
    position = fields.IntField(default=0)
    executed = fields.IntField(default=0)
    wake_at = fields.DatetimeField(null=True)
    reason = fields.TextField(null=True)
    trigger: dict = fields.JSONField(default=dict)
    entered_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)
    finished_at = fields.DatetimeField(null=True)

    class Meta:
        table = "journey_enrollments"
        app = "crm"
        unique_together = (("journey", "contact", "sequence"),)
        indexes = (("journey_id", "id"), ("state", "wake_at"))


class EnrollmentStep(Model):
    id = fields.BigIntField(primary_key=True)
    enrollment = fields.ForeignKeyField("crm.Enrollment", related_name="steps", on_delete=fields.CASCADE)
    ordinal = fields.IntField()
    step_id = fields.CharField(max_length=64)
    kind = fields.CharField(max_length=16)
    outcome = fields.CharField(max_length=16)
    reason = fields.TextField(null=True)
    detail: dict = fields.JSONField(default=dict)
    executed_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "journey_enrollment_steps"
        app = "crm"
        unique_together = (("enrollment", "ordinal"),)


# --- entry -------------------------------------------------------------------------------------------
#
# Trigger kinds (app/crm/journey/schemas.py validates them):
#   {"tipo": "lista", "lista_id": "lst_..."}           a contact added to the list
#   {"tipo": "segmento", "segmento_id": "seg_..."}     a contact entering the segment (schedules/crm/journeys.py)
#   {"tipo": "formulario", "formulario_id": str|null}  a form submission from the runtime (any form when null)
#   {"tipo": "lead"}                                    a lead from the runtime
#   {"tipo": "evento", "nome": "..."}                  an API event of that name (POST /v1/eventos)

_ENROLL = """
WITH c AS (SELECT DISTINCT unnest($3::bigint[]) AS contact_id),
ins AS (
  INSERT INTO journey_enrollments (public_id, tenant, journey_id, contact_id, sequence, state, position, executed,
                                   trigger, entered_at, updated_at)
  SELECT 'ins_' || substr(md5(random()::text || clock_timestamp()::text || c.contact_id::text), 1, 24), $2, $1,
         c.contact_id,
         CASE WHEN $4 THEN COALESCE((SELECT max(e.sequence) FROM journey_enrollments e
                                     WHERE e.journey_id = $1 AND e.contact_id = c.contact_id), 0) + 1 ELSE 1 END,
         'em_andamento', 0, 0, $5::jsonb, now(), now()
  FROM c JOIN contacts k ON k.id = c.contact_id AND k.tenant = $2 AND k.anonymized_at IS NULL
  ON CONFLICT DO NOTHING
  RETURNING id
), jobs AS (
  {outbox}
)
SELECT count(*) AS n FROM ins
"""


def _enroll_sql() -> str:
    return _ENROLL.replace("{outbox}", insert_sql(Actor.CRM_JOURNEY_ADVANCE, "ins", request="$6::text"))


def trigger_matches(trigger: dict, kind: str, key: str | None) -> bool:
    """Whether a journey's trigger takes an entry of ``kind`` (lista, segmento, formulario, lead, evento)
    whose key is ``key`` (the list or segment id, the form id, the event name)."""
    if trigger.get("tipo") != kind:
        return False
    if kind == "lista":
        return trigger.get("lista_id") == key
    if kind == "segmento":
        return trigger.get("segmento_id") == key
    if kind == "formulario":
        return trigger.get("formulario_id") in (None, key)
    if kind == "evento":
        return trigger.get("nome") == key
    return kind == "lead"


async def enroll_into(conn, journey_pk: int, tenant: str, allow_reentry: bool, contact_pks: list[int],
                      detail: dict | None = None) -> int:
    """Enroll the contacts into one journey (one enrollment per contact unless re-entry is allowed,
    and never two unfinished ones); the advancing job of each new enrollment goes to the CRM outbox in
    the caller's transaction. How many were enrolled."""
    if not contact_pks:
        return 0
    rows = await conn.execute_query_dict(_enroll_sql(), [journey_pk, tenant, list(contact_pks), allow_reentry,
                                                         json.dumps(detail or {}), request_id()])
    return int(rows[0]["n"])


async def enroll(conn, tenant: str, kind: str, key: str | None, contact_pks: list[int],
                 detail: dict | None = None) -> int:
    """Enroll the contacts into every active journey of ``tenant`` whose trigger takes this entry."""
    if not contact_pks:
        return 0
    journeys = await conn.execute_query_dict(
        "SELECT id, trigger, allow_reentry FROM journeys WHERE tenant = $1 AND active", [tenant])
    total = 0
    for journey in journeys:
        trigger = journey["trigger"]
        if isinstance(trigger, str):
            trigger = json.loads(trigger)
        if trigger_matches(trigger, kind, key):
            total += await enroll_into(conn, journey["id"], tenant, journey["allow_reentry"], contact_pks,
                                       {"tipo": kind, **({"chave": key} if key else {}), **(detail or {})})
    return total
