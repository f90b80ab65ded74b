"""Journeys: the rules behind /v1/jornadas.

Saving checks the shape (app/crm/journey/schemas.py) and computes what the journey still lacks to
run (:func:`problems`: no trigger, no step, a list or segment that is not the account's, a jump that
does not go forward, a send with no content, a rule that does not compile). Turning a journey on
recomputes them (the account's lists and segments may have changed) and refuses with 422 listing
each; turning it off never refuses. A valid journey keeps its rules compiled (``compiled``) so the
workers and the scheduler run them without the compiler (models cannot import it).

An active journey's trigger and steps cannot be edited (409: turn it off first); editing the steps
of a journey that is off cancels its unfinished enrollments, since their position means nothing in
the new steps. Turning a journey off pauses its enrollments where they are (the actor and the wake
job skip them); turning it on again resumes them.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.contact.service import contact as find_contact
from app.crm.segment.rules import compile_rules
from app.http import errors
from app.http.paging import KeysetPage, Page
from app.crm.journey.schemas import (JourneyWrite, check_quiet_hours, check_steps, check_timezone,
                                     check_trigger)
from kit.actors import Actor
from models.crm import ContactList, Enrollment, EnrollmentStep, Journey, Segment
from models.crm.journey import EnrollmentState, new_journey_id
from models.outbox import insert_sql, request_id

OPEN = (EnrollmentState.RUNNING.value, EnrollmentState.WAITING.value)


async def journey(conn: BaseDBAsyncClient, tenant: str, journey_id: str) -> Journey:
    found = await Journey.get_or_none(public_id=journey_id, tenant=tenant, using_db=conn)
    if found is None:
        raise errors.NotFound("No journey with this id.")
    return found


async def list_journeys(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage) -> Page[Journey]:
    return await page.fetch(conn, Journey.filter(tenant=tenant).using_db(conn), audience=f"{tenant}:jornadas")


async def enrollment_counts(conn: BaseDBAsyncClient, rows: list[Journey]) -> dict[int, dict[str, int]]:
    """Each journey's enrollments by state (every state present, 0 when none), in one grouped read
    served by the (journey_id, id) index."""
    counts = {row.id: {state.value: 0 for state in EnrollmentState} for row in rows}
    if rows:
        found = await conn.execute_query_dict(
            "SELECT journey_id, state, count(*)::int AS n FROM journey_enrollments WHERE journey_id = ANY($1::bigint[]) "
            "GROUP BY journey_id, state", [list(counts)])
        for item in found:
            counts[item["journey_id"]][item["state"]] = item["n"]
    return counts


async def problems(conn: BaseDBAsyncClient, row: Journey) -> tuple[dict[str, str], dict[str, Any] | None]:
    """(field -> what is wrong, the compiled rules when nothing is)."""
    found: dict[str, str] = {}
    compiled: dict[str, Any] = {"segmento": None, "condicoes": {}}
    trigger = row.trigger or None
    if not trigger:
        found["gatilho"] = "a journey needs an entry trigger"
    elif trigger["tipo"] == "lista":
        if not await ContactList.exists(tenant=row.tenant, public_id=trigger["lista_id"], using_db=conn):
            found["gatilho.lista_id"] = "no list of this account has this id"
    elif trigger["tipo"] == "segmento":
        segment = await Segment.get_or_none(tenant=row.tenant, public_id=trigger["segmento_id"], using_db=conn)
        if segment is None:
            found["gatilho.segmento_id"] = "no segment of this account has this id"
        else:
            try:
                sql, params = await compile_rules(conn, row.tenant, segment.rules)
                compiled["segmento"] = {"sql": sql, "params": params}
            except errors.HttpError as exc:
                found["gatilho.segmento_id"] = f"the segment's rules no longer compile: {exc.message}"
    steps = row.steps or []
    if not steps:
        found["passos"] = "a journey needs at least one step"
    ids = [step["id"] for step in steps]
    for index, step in enumerate(steps):
        path = f"passos[{index}]"
        if step["tipo"] == "enviar":
            if step.get("modelo"):
                if any(step.get(key) for key in ("assunto", "texto", "html")):
                    found[f"{path}.modelo"] = "give a modelo or assunto/texto/html, not both"
            elif step["canal"] == "email":
                if not step.get("assunto") or not (step.get("texto") or step.get("html")):
                    found[f"{path}.texto"] = "an e-mail needs assunto and texto or html (or a modelo)"
            elif step["canal"] == "push":
                if not step.get("assunto") or not step.get("texto"):
                    found[f"{path}.texto"] = "a push needs assunto (its title) and texto (or a modelo)"
            elif not step.get("texto"):
                found[f"{path}.texto"] = f"a {step['canal']} message needs texto (or a modelo)"
            if step["canal"] == "email" and not step.get("de"):
                found[f"{path}.de"] = "an e-mail needs de, an address of a verified domain of the account"
            if step.get("variaveis") and not step.get("modelo"):
                found[f"{path}.variaveis"] = "variaveis go with modelo"
        elif step["tipo"] == "condicao":
            for key in ("se_sim", "se_nao"):
                target = step.get(key)
                if target is None:
                    continue
                if target not in ids:
                    found[f"{path}.{key}"] = f"no step has the id {target!r}"
                elif ids.index(target) <= index:
                    found[f"{path}.{key}"] = "a condition jumps forward only"
            try:
                sql, params = await compile_rules(conn, row.tenant, step["regra"])
                compiled["condicoes"][step["id"]] = {"sql": sql, "params": params}
            except errors.HttpError as exc:
                found[f"{path}.regra"] = exc.message
    return found, (None if found else compiled)


def _apply(row: Journey, values: dict[str, Any]) -> bool:
    """Apply the written fields; whether the trigger or steps changed."""
    structural = False
    if "nome" in values:
        row.name = values["nome"].strip() or values["nome"]
    if "gatilho" in values:
        row.trigger = check_trigger(values["gatilho"]) or {}
        structural = True
    if "passos" in values:
        row.steps = check_steps(values["passos"])
        structural = True
    if "fuso_horario" in values:
        row.timezone = check_timezone(values["fuso_horario"])
    if "horario_silencioso" in values:
        row.quiet_hours = check_quiet_hours(values["horario_silencioso"])
    if "permite_reentrada" in values:
        row.allow_reentry = values["permite_reentrada"]
    if "modo" in values:
        row.mode = values["modo"]
    return structural


async def create(conn: BaseDBAsyncClient, tenant: str, body: JourneyWrite) -> tuple[Journey, dict[str, str]]:
    row = Journey(public_id=new_journey_id(), tenant=tenant, trigger={}, steps=[], active=False)
    _apply(row, body.model_dump())
    found, row.compiled = await problems(conn, row)
    await row.save(using_db=conn, force_create=True)
    return row, found


async def update(conn: BaseDBAsyncClient, tenant: str, journey_id: str,
                 changes: dict[str, Any]) -> tuple[Journey, dict[str, str]]:
    row = await journey(conn, tenant, journey_id)
    await conn.execute_query("SELECT 1 FROM journeys WHERE id = $1 FOR UPDATE", [row.id])
    if row.active and ({"gatilho", "passos"} & set(changes)):
        raise errors.Conflict("This journey is on: turn it off before changing its trigger or steps.",
                              details={"ativa": "turn the journey off first"})
    if _apply(row, changes) and "passos" in changes:
        await conn.execute_query(
            "UPDATE journey_enrollments SET state = $2, reason = $3, finished_at = now(), wake_at = NULL, "
            "updated_at = now() WHERE journey_id = $1 AND state = ANY($4::text[])",
            [row.id, EnrollmentState.CANCELLED.value, "the journey's steps were edited", list(OPEN)])
    found, row.compiled = await problems(conn, row)
    await row.save(using_db=conn)
    return row, found


async def delete(conn: BaseDBAsyncClient, tenant: str, journey_id: str) -> None:
    row = await journey(conn, tenant, journey_id)
    await row.delete(using_db=conn)  # enrollments and their steps go with it


_RESUME = f"""
WITH resumed AS (
  UPDATE journey_enrollments SET updated_at = now() WHERE journey_id = $1 AND state = 'em_andamento' RETURNING id
)
{insert_sql(Actor.CRM_JOURNEY_ADVANCE, "resumed", request="$2::text")}
"""


async def set_active(conn: BaseDBAsyncClient, tenant: str, journey_id: str,
                     active: bool) -> tuple[Journey, dict[str, str]]:
    """Turn on (revalidated: 422 listing every problem) or off (never refused)."""
    row = await journey(conn, tenant, journey_id)
    await conn.execute_query("SELECT 1 FROM journeys WHERE id = $1 FOR UPDATE", [row.id])
    found, compiled = await problems(conn, row)
    if active:
        if found:
            raise errors.Unprocessable("This journey cannot be turned on: " + "; ".join(
                f"{field}: {reason}" for field, reason in found.items()) + ".", details=found)
        if not row.active:
            row.activated_at = datetime.now(timezone.utc)
            # Enrollments paused mid-step when it was turned off go on now (waiting ones wake on time).
            await conn.execute_query(_RESUME, [row.id, request_id()])
        row.compiled = compiled
    row.active = active
    await row.save(using_db=conn)
    return row, found


async def enrollments(conn: BaseDBAsyncClient, tenant: str, journey_id: str, page: KeysetPage,
                      state: str | None) -> tuple[Journey, Page[Enrollment], dict[int, list[EnrollmentStep]],
                                                  dict[int, str]]:
    """A page of the journey's enrollments (newest first), their executed steps and contact ids."""
    row = await journey(conn, tenant, journey_id)
    query = Enrollment.filter(tenant=tenant, journey_id=row.id).using_db(conn)
    if state is not None:
        if state not in {item.value for item in EnrollmentState}:
            raise errors.Unprocessable("Unknown enrollment state.", details={
                "estado": "one of " + ", ".join(item.value for item in EnrollmentState)})
        query = query.filter(state=state)
    found = await page.fetch(conn, query, audience=f"{tenant}:inscricoes:{journey_id}:{state or ''}")
    pks = [item.id for item in found.items]
    steps: dict[int, list[EnrollmentStep]] = {pk: [] for pk in pks}
    for step in await EnrollmentStep.filter(enrollment_id__in=pks).using_db(conn).order_by("ordinal") if pks else []:
        steps[step.enrollment_id].append(step)
    contacts = {}
    if pks:
        rows = await conn.execute_query_dict(
            "SELECT e.id, c.public_id FROM journey_enrollments e JOIN contacts c ON c.id = e.contact_id "
            "WHERE e.id = ANY($1::bigint[])", [pks])
        contacts = {item["id"]: item["public_id"] for item in rows}
    return row, found, steps, contacts


CONTACT_ENROLLMENTS = 50


async def contact_enrollments(conn: BaseDBAsyncClient, tenant: str, contact_id: str) -> list[tuple[Enrollment, Journey]]:
    """The contact's latest enrollments (newest first, at most CONTACT_ENROLLMENTS), each with its journey."""
    row = await find_contact(conn, tenant, contact_id)
    found = await Enrollment.filter(tenant=tenant, contact_id=row.id).using_db(conn).order_by("-id") \
        .limit(CONTACT_ENROLLMENTS).prefetch_related("journey")
    return [(item, item.journey) for item in found]
