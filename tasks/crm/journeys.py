"""Journeys in the CRM (queue ``crm``): ``crm_journeys.advance`` runs an enrollment's steps;
``crm_journeys.sync_suppression`` carries a contact's opt-out to the platform.

advance(enrollment)
    Each step is one CRM transaction that locks the enrollment row (``FOR UPDATE SKIP LOCKED``: a
    second job for the same enrollment sees it taken and leaves), runs the step, writes its
    ``journey_enrollment_steps`` row (unique (enrollment, ordinal)) and moves the enrollment on, all
    committed together. A send step calls the platform's internal send route inside that
    transaction with the idempotency key ``crm-jrn:<enrollment>:<step>``: a worker killed after the
    platform accepted the message but before the commit leaves the step unrecorded, the job is
    handed back (Dramatiq's heartbeat; schedules/crm/journeys.py as a backstop) and the repeat gets
    the platform's first messages back (``ReusedIdempotency``), so nothing is sent twice and no
    step is lost.

    Steps: ``enviar`` (skipped, with the reason, when the contact opted out of the channel, is not
    subscribed or has no address for it; held until the quiet hours end when due inside them),
    ``esperar`` (the enrollment waits; the scheduler hands it back when due), ``condicao`` (the rule
    compiled when the journey was saved, run against the contact; jumps forward), ``sair``.
    The platform unreachable, 5xx or 429: the job is retried (nothing recorded). Any other refusal
    (422: a template that does not render, an unverified sender...) records the step ``falhou``
    with the platform's message and the journey goes on.

sync_suppression(contact, channel)
    Reads the contact's consent for the channel when it runs (so jobs in any order end in the
    current state) and PUTs the platform's suppression of that address for the account.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import dramatiq
import httpx
from tortoise import connections
from tortoise.transactions import in_transaction

from kit.actors import Actor
from models.crm.contact import unseal
from models.crm.journey import EnrollmentState, StepOutcome
from models.outbox import enqueue
from tasks.calls import Unavailable, call

log = logging.getLogger("herald.crm.journeys")

SYSTEM = Actor.CRM_JOURNEY_ADVANCE.system
MAX_STEPS_PER_RUN = 60
TIMEOUT = httpx.Timeout(15.0, connect=5.0)
MODES = {"teste": "test", "real": "live"}


class PlatformUnavailable(Unavailable):
    """The platform did not take the call; the job is retried (nothing was recorded)."""


@dataclass
class Result:
    outcome: str | None                # the step row's outcome; None: no row (held by quiet hours)
    next_position: int
    state: str = EnrollmentState.RUNNING.value
    wake_at: datetime | None = None
    reason: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def quiet_until(now: datetime, zone: str, window: dict | None) -> datetime | None:
    """The end of the quiet hours when ``now`` is inside them (in the journey's time zone), else None."""
    if not window:
        return None
    tz = ZoneInfo(zone)
    local = now.astimezone(tz)
    start = time.fromisoformat(window["inicio"])
    end = time.fromisoformat(window["fim"])
    moment = local.time().replace(tzinfo=None)
    if start < end:
        inside = start <= moment < end
        day = local.date()
    else:  # over midnight, e.g. 22:00 to 08:00
        inside = moment >= start or moment < end
        day = local.date() + timedelta(days=1) if moment >= start else local.date()
    if not inside:
        return None
    return datetime.combine(day, end, tzinfo=tz).astimezone(timezone.utc)


def idempotency_key(enrollment_public_id: str, step_id: str) -> str:
    return f"crm-jrn:{enrollment_public_id}:{step_id}"


async def _contact(conn, contact_pk: int) -> dict | None:
    rows = await conn.execute_query_dict(
        "SELECT id, tenant, email_sealed, phone_sealed, name_sealed, attributes, subscribed, anonymized_at "
        "FROM contacts WHERE id = $1", [contact_pk])
    return rows[0] if rows else None


def _address(contact: dict, channel: str) -> str | None:
    if channel == "email":
        return unseal(contact["tenant"], contact["email_sealed"])
    if channel in ("sms", "whatsapp"):
        return unseal(contact["tenant"], contact["phone_sealed"])
    token = (_json(contact["attributes"]) or {}).get("push_token")
    return token if isinstance(token, str) and token else None


def _variables(contact: dict, given: dict | None) -> dict[str, Any]:
    attributes = _json(contact["attributes"]) or {}
    tenant = contact["tenant"]
    own = {"nome": unseal(tenant, contact["name_sealed"]), "email": unseal(tenant, contact["email_sealed"]),
           "telefone": unseal(tenant, contact["phone_sealed"])}
    return {**attributes, **{key: value for key, value in own.items() if value is not None}, **(given or {})}


async def post_platform(tenant: str, path: str, body: dict, method: str = "POST") -> httpx.Response:
    return await call("platform", f"/internal/v1/tenants/{tenant}{path}", body, method=method, timeout=TIMEOUT,
                      retryable=(429,), unavailable=PlatformUnavailable)


def _message(response: httpx.Response) -> str:
    try:
        error = response.json().get("Error") or {}
        return f"{error.get('Code', response.status_code)}: {error.get('Message', '')}"[:500]
    except ValueError:
        return f"HTTP {response.status_code}"


async def _send(conn, row: dict, step: dict, position: int) -> Result:
    channel = step["canal"]
    after = position + 1
    contact = await _contact(conn, row["contact_id"])
    if contact is None or contact["anonymized_at"] is not None:
        return Result(StepOutcome.SKIPPED.value, after, reason="the contact was anonymized")
    opted = await conn.execute_query_dict("SELECT 1 FROM opt_outs WHERE contact_id = $1 AND channel = $2",
                                          [row["contact_id"], channel])
    if opted:
        return Result(StepOutcome.SKIPPED.value, after, reason=f"the contact opted out of {channel}")
    if not contact["subscribed"]:
        return Result(StepOutcome.SKIPPED.value, after, reason="the contact is not subscribed")
    address = _address(contact, channel)
    if not address:
        return Result(StepOutcome.SKIPPED.value, after, reason=f"the contact has no {channel} address")
    now = datetime.now(timezone.utc)
    held = quiet_until(now, row["timezone"], _json(row["quiet_hours"]))
    if held is not None:
        return Result(None, position, state=EnrollmentState.WAITING.value, wake_at=held,
                      reason="quiet hours")
    body: dict[str, Any] = {"Channel": channel, "Recipients": [address], "Mode": MODES.get(row["mode"], "test"),
                            "IdempotencyKey": idempotency_key(row["public_id"], step["id"])}
    for wire, key in (("From", "de"), ("Subject", "assunto"), ("Text", "texto"), ("Html", "html"),
                      ("Template", "modelo")):
        if step.get(key):
            body[wire] = step[key]
    if step.get("modelo"):
        body["Variables"] = _variables(contact, step.get("variaveis"))
    response = await post_platform(row["tenant"], "/messages/send", body)
    if response.status_code == 202:
        answer = response.json()
        return Result(StepOutcome.DONE.value, after, detail={
            "mensagens": [item["MessageId"] for item in answer.get("Messages", [])],
            "reutilizada": bool(answer.get("ReusedIdempotency"))})
    if response.status_code == 409:
        # The key was taken by a first attempt whose body differed (the contact changed in between):
        # that first attempt was accepted, so the step is done and is not sent again.
        return Result(StepOutcome.DONE.value, after, reason=_message(response), detail={"reutilizada": True})
    return Result(StepOutcome.FAILED.value, after, reason=_message(response))


async def _condition(conn, row: dict, step: dict, position: int, steps: list[dict]) -> Result:
    compiled = (_json(row["compiled"]) or {}).get("condicoes", {}).get(step["id"])
    if compiled is None:
        return Result(StepOutcome.FAILED.value, position + 1, reason="the condition was not compiled")
    params = list(compiled["params"])
    sql = (f"SELECT EXISTS (SELECT 1 FROM contacts c WHERE c.id = ${len(params) + 1}::bigint "
           f"AND {compiled['sql']}) AS hit")
    hit = (await conn.execute_query_dict(sql, params + [row["contact_id"]]))[0]["hit"]
    target = step.get("se_sim" if hit else "se_nao")
    ids = [item["id"] for item in steps]
    following = ids.index(target) if target in ids else position + 1
    return Result(StepOutcome.DONE.value, following, detail={"resultado": bool(hit), "proximo": target})


async def run_step(conn, row: dict, steps: list[dict]) -> Result:
    position = row["position"]
    step = steps[position]
    kind = step["tipo"]
    if kind == "enviar":
        return await _send(conn, row, step, position)
    if kind == "esperar":
        wake = datetime.now(timezone.utc) + timedelta(seconds=int(step["segundos"]))
        return Result(StepOutcome.DONE.value, position + 1, state=EnrollmentState.WAITING.value, wake_at=wake,
                      detail={"ate": wake.isoformat()})
    if kind == "condicao":
        return await _condition(conn, row, step, position, steps)
    return Result(StepOutcome.DONE.value, len(steps))  # sair


_CLAIM = """
SELECT e.id, e.public_id, e.tenant, e.contact_id, e.state, e.position, e.executed,
       j.active, j.steps, j.timezone, j.quiet_hours, j.mode, j.compiled
FROM journey_enrollments e JOIN journeys j ON j.id = e.journey_id
WHERE e.id = $1 FOR UPDATE OF e SKIP LOCKED
"""


async def step_once(enrollment_pk: int) -> bool:
    """Run the enrollment's current step in one transaction; whether there is more to run now."""
    async with in_transaction(SYSTEM) as conn:
        rows = await conn.execute_query_dict(_CLAIM, [enrollment_pk])
        if not rows:
            return False  # gone, or another worker holds it
        row = rows[0]
        if row["state"] != EnrollmentState.RUNNING.value or not row["active"]:
            return False  # finished, waiting, or its journey is off (paused)
        steps = _json(row["steps"]) or []
        if row["position"] >= len(steps):
            await conn.execute_query(
                "UPDATE journey_enrollments SET state = $2, finished_at = now(), wake_at = NULL, "
                "updated_at = now() WHERE id = $1", [enrollment_pk, EnrollmentState.DONE.value])
            return False
        step = steps[row["position"]]
        result = await run_step(conn, row, steps)
        if result.outcome is not None:
            await conn.execute_query(
                "INSERT INTO journey_enrollment_steps (enrollment_id, ordinal, step_id, kind, outcome, reason, detail, "
                "executed_at) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now())",
                [enrollment_pk, row["executed"] + 1, step["id"], step["tipo"], result.outcome, result.reason,
                 json.dumps(result.detail, ensure_ascii=False)])
        done = result.state == EnrollmentState.RUNNING.value and result.next_position >= len(steps)
        state = EnrollmentState.DONE.value if done else result.state
        await conn.execute_query(
            "UPDATE journey_enrollments SET position = $2, executed = executed + $3, state = $4::varchar, wake_at = $5, "
            "reason = $6, finished_at = CASE WHEN $4::varchar = 'concluida' THEN now() ELSE NULL END, "
            "updated_at = now() "
            "WHERE id = $1",
            [enrollment_pk, result.next_position, 0 if result.outcome is None else 1, state, result.wake_at,
             result.reason if result.outcome is None else None])
        return state == EnrollmentState.RUNNING.value


async def advance(enrollment_pk: int) -> None:
    for _ in range(MAX_STEPS_PER_RUN):
        if not await step_once(enrollment_pk):
            return
    # A long run of instant steps: hand the rest to a fresh job rather than hold this one.
    async with in_transaction(SYSTEM) as conn:
        await enqueue(conn, Actor.CRM_JOURNEY_ADVANCE, enrollment_pk)


@dramatiq.actor(
    actor_name=Actor.CRM_JOURNEY_ADVANCE.name,
    queue_name=Actor.CRM_JOURNEY_ADVANCE.queue.value,
    max_retries=20,
    min_backoff=2_000,
    max_backoff=300_000,
    time_limit=10 * 60 * 1000,
    max_age=7 * 24 * 3600 * 1000,
)
async def advance_enrollment(enrollment_pk: int) -> None:
    try:
        await advance(enrollment_pk)
    except PlatformUnavailable as exc:
        log.warning("journey enrollment %s: the platform did not take the send (%s); retrying", enrollment_pk, exc)
        raise


# --- consent to suppressions -------------------------------------------------------------------------

async def sync(contact_pk: int, channel: str) -> str:
    """PUT the platform's suppression of the contact's address on ``channel`` as its consent now says."""
    db = connections.get(SYSTEM)
    contact = await _contact(db, contact_pk)
    if contact is None or contact["anonymized_at"] is not None:
        return "gone"
    address = _address(contact, channel)
    if not address:
        return "no-address"
    opted = bool(await db.execute_query_dict("SELECT 1 FROM opt_outs WHERE contact_id = $1 AND channel = $2",
                                             [contact_pk, channel]))
    response = await post_platform(contact["tenant"], "/suppressions",
                                   {"Channel": channel, "Address": address, "Suppressed": opted}, method="PUT")
    if response.status_code == 404:
        log.info("suppression sync: no platform account %s; nothing to suppress", contact["tenant"])
        return "no-account"
    if response.status_code != 200:
        log.warning("suppression sync refused for contact %s: %s", contact_pk, _message(response))
        return "refused"
    return "suppressed" if opted else "lifted"


@dramatiq.actor(
    actor_name=Actor.CRM_SUPPRESSION_SYNC.name,
    queue_name=Actor.CRM_SUPPRESSION_SYNC.queue.value,
    max_retries=20,
    min_backoff=2_000,
    max_backoff=300_000,
    time_limit=60 * 1000,
    max_age=7 * 24 * 3600 * 1000,
)
async def sync_suppression(contact_pk: int, channel: str) -> None:
    await sync(contact_pk, channel)
