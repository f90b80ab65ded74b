"""An account's journeys: the list; a new journey (name, trigger and settings); a journey's page,
its steps as a vertical flow from the trigger down, each with what the CRM says it lacks, the
switch that turns it on (the CRM revalidates: a refusal names each problem, shown on its step) or
off, and its enrollments (where each contact stands), which follow themselves every 2 s while the
journey is on. Steps are edited in app/console/journey/step_routes.py.
``GET/POST /v1/jornadas``, ``GET/PATCH/DELETE /v1/jornadas/{id}``, ``PUT /v1/jornadas/{id}/ativa``,
``GET /v1/jornadas/{id}/inscricoes``, ``GET /v1/listas``, ``GET /v1/segmentos`` on the CRM."""

from __future__ import annotations

import asyncio

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.contact import crm
from app.console.journey import steps as words
from app.console.templating import is_htmx, render

bp = Blueprint("console_journey")
POLL_SECONDS = 2
MAX_POLLS = 300  # ten minutes of following; then the page says so
SETTINGS = ("name", "trigger", "list", "segment", "event", "form", "mode", "reentry", "timezone", "quiet_from",
            "quiet_to")
NOTICES = {"created": "Journey created. Add its steps, then turn it on.", "saved": "Journey saved.",
           "on": "The journey is on: contacts who meet its trigger enter it now.",
           "off": "The journey is off: its enrollments wait where they are until it is on again.",
           "step": "Step saved.", "moved": "Step moved.", "removed": "Step removed."}


async def journey_of(request: Request, account_id: str, journey_id: str) -> dict:
    found = await crm.call(request, account_id, "GET", f"/v1/jornadas/{journey_id}")
    if not found.ok:
        raise upstream.Unavailable()
    return found.get("jornada")


async def names(request: Request, account_id: str) -> tuple[list[dict] | None, list[dict] | None]:
    """The account's lists and segments (to choose a trigger and to name it), None when unavailable."""
    lists, segments = await asyncio.gather(
        crm.read(request, account_id, "/v1/listas", params={"limit": "200"}),
        crm.read(request, account_id, "/v1/segmentos", params={"limit": "200"}))
    return (lists.get("listas", []) if lists is not None and lists.ok else None,
            segments.get("segmentos", []) if segments is not None and segments.ok else None)


@bp.get("/a/<account_id:id>/journeys")
async def journeys(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    listed = await crm.read(request, account_id, "/v1/jornadas", params={"limit": "100"})
    lists, segments = await names(request, account_id)
    named = ({item["id"]: item["nome"] for item in lists or []}, {item["id"]: item["nome"] for item in segments or []})
    found = listed.get("jornadas", []) if listed is not None and listed.ok else None
    return render(request, "journey/journeys.html", title="Journeys", section="journeys", admin=crm.can_edit(account),
                  journeys=found, states=words.ENROLLMENT_STATES, trigger_words=lambda trigger: words.trigger_words(trigger, *named))


def _settings_values(journey: dict | None) -> dict[str, str]:
    journey = journey or {"nome": "", "modo": "teste", "permite_reentrada": False, "fuso_horario": "UTC"}
    quiet = journey.get("horario_silencioso") or {}
    return {"name": journey["nome"], "mode": journey.get("modo", "teste"),
            "reentry": "yes" if journey.get("permite_reentrada") else "", "timezone": journey.get("fuso_horario", "UTC"),
            "quiet_from": quiet.get("inicio", ""), "quiet_to": quiet.get("fim", ""),
            **words.trigger_values(journey.get("gatilho"))}


async def _settings_page(request: Request, account: dict, journey: dict | None, values: dict[str, str],
                         status: int = 200, errors: dict | None = None) -> HTTPResponse:
    lists, segments = await names(request, account["Id"])
    return render(request, "journey/settings.html", status, section="journeys",
                  title=f"{journey['nome']}: settings" if journey else "New journey", journey=journey,
                  values=values, errors=errors or {}, lists=lists, segments=segments, triggers=words.TRIGGERS,
                  admin=crm.can_edit(account))


@bp.get("/a/<account_id:id>/journeys/new")
async def new(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _settings_page(request, account, None, _settings_values(None))


def _read_settings(request: Request, journey: dict | None) -> tuple[dict[str, str], dict, dict[str, str]]:
    values = forms.values(request, *SETTINGS)
    errors: dict[str, str] = {}
    body: dict = {"nome": values["name"][:200], "modo": "real" if values["mode"] == "real" else "teste",
                  "permite_reentrada": values["reentry"] == "yes", "fuso_horario": values["timezone"] or "UTC"}
    if not values["name"]:
        errors["name"] = "Enter the journey's name"
    if values["quiet_from"] or values["quiet_to"]:
        body["horario_silencioso"] = {"inicio": values["quiet_from"], "fim": values["quiet_to"]}
    else:
        body["horario_silencioso"] = None
    trigger = words.trigger_of(values, errors)
    if journey is None or not journey["ativa"]:  # an active journey's trigger is not sent (the CRM refuses it)
        body["gatilho"] = trigger
    return values, body, errors


FIELD_OF = {"nome": "name", "fuso_horario": "timezone", "horario_silencioso": "quiet_from",
            "horario_silencioso.inicio": "quiet_from", "horario_silencioso.fim": "quiet_to",
            "gatilho.nome": "event", "gatilho.lista_id": "list", "gatilho.segmento_id": "segment",
            "gatilho.formulario_id": "form"}
WORDS_OF = {"timezone": "Enter a time zone such as America/Sao_Paulo or UTC",
            "quiet_from": "Enter both times as HH:MM (24 hours), and different", "quiet_to": "Enter the time as HH:MM"}


def refusal(answer: upstream.Answer, field_of: dict[str, str], what: str) -> dict[str, str]:
    """The CRM's refusal as the page's errors: beside the field it names, else in the summary."""
    if answer.status == 403:
        return {"_": f"Only owners and admins {what}."}
    if answer.status == 409:
        return {"_": "This journey is on: turn it off before changing its trigger or steps."}
    for key in answer.details:
        if key in field_of:
            field = field_of[key]
            return {field: WORDS_OF.get(field, answer.message)}
    return {"_": answer.message or f"Herald could not {what}. Try again."}


@bp.post("/a/<account_id:id>/journeys")
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values, body, errors = _read_settings(request, None)
    if errors:
        return await _settings_page(request, account, None, values, 400, errors)
    answer = await crm.call(request, account_id, "POST", "/v1/jornadas", json=body)
    if not answer.ok:
        return await _settings_page(request, account, None, values, answer.status,
                                    refusal(answer, FIELD_OF, "create journeys"))
    return redirect(f"/a/{account_id}/journeys/{answer.get('jornada')['id']}?done=created", status=303)


@bp.get("/a/<account_id:id>/journeys/<journey_id:id>/settings")
async def settings(request: Request, account_id: str, journey_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    journey = await journey_of(request, account_id, journey_id)
    return await _settings_page(request, account, journey, _settings_values(journey))


@bp.post("/a/<account_id:id>/journeys/<journey_id:id>/settings")
async def save_settings(request: Request, account_id: str, journey_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    journey = await journey_of(request, account_id, journey_id)
    values, body, errors = _read_settings(request, journey)
    if errors:
        return await _settings_page(request, account, journey, values, 400, errors)
    answer = await crm.call(request, account_id, "PATCH", f"/v1/jornadas/{journey_id}", json=body)
    if not answer.ok:
        return await _settings_page(request, account, journey, values, answer.status,
                                    refusal(answer, FIELD_OF, "change journeys"))
    return redirect(f"/a/{account_id}/journeys/{journey_id}?done=saved", status=303)


def enrollment_rows(items: list[dict], steps: list[dict]) -> list[dict]:
    """Each enrollment with its current step named by its place in the flow."""
    place = {step["id"]: index for index, step in enumerate(steps)}
    titles = {step["id"]: f"Step {index + 1}: {words.step_title(step)}" for index, step in enumerate(steps)}
    rows = []
    for item in items:
        current = item.get("passo_atual")
        history = [{**entry, "title": titles.get(entry["passo_id"], entry["passo_id"]),
                    "outcome": words.OUTCOMES.get(entry["resultado"], entry["resultado"])}
                   for entry in item.get("historico", [])]
        rows.append({**item, "state": words.ENROLLMENT_STATES.get(item["estado"], item["estado"]),
                     "current": titles.get(current) if current else None, "current_index": place.get(current),
                     "history": history})
    return rows


async def journey_page(request: Request, account: dict, journey_id: str, status: int = 200,
                       errors: dict | None = None, notice: str | None = None) -> HTTPResponse:
    account_id = account["Id"]
    journey = await journey_of(request, account_id, journey_id)
    poll = forms.polls(request, MAX_POLLS) if request.args.get("poll") else 0
    enrolled = await crm.read(request, account_id, f"/v1/jornadas/{journey_id}/inscricoes", params={"limit": "50"})
    steps = journey.get("passos") or []
    items = enrolled.get("inscricoes", []) if enrolled is not None and enrolled.ok else None
    context = {"section": "journeys", "title": journey["nome"], "journey": journey, "steps": steps, "words": words,
               "enrollments": None if items is None else enrollment_rows(items, steps),
               "more_enrollments": bool(enrolled is not None and enrolled.get("tem_mais")),
               "poll": poll, "following": journey["ativa"] and poll < MAX_POLLS,
               "stopped": journey["ativa"] and poll >= MAX_POLLS, "poll_seconds": POLL_SECONDS,
               "admin": crm.can_edit(account)}
    if is_htmx(request) and request.args.get("poll"):
        # The refresh also moves each step's "N contacts here" (out of band).
        return render(request, "journey/journey.html", fragment="journey/_enrollments.html", here_oob=True, **context)
    lists, segments = await names(request, account_id)
    trigger_problems, step_problems, journey_problems = words.problems_by_place(journey.get("problemas", []), steps)
    done = request.args.get("done")
    return render(request, "journey/journey.html", status, fragment="journey/_enrollments.html",
                  errors=errors or {}, notice=notice or NOTICES.get(done or ""),
                  trigger=words.trigger_words(journey.get("gatilho"), {i["id"]: i["nome"] for i in lists or []},
                                              {i["id"]: i["nome"] for i in segments or []}),
                  trigger_problems=trigger_problems, step_problems=step_problems, journey_problems=journey_problems,
                  **context)


@bp.get("/a/<account_id:id>/journeys/<journey_id:id>", ctx_query=("done", "poll"))
async def journey(request: Request, account_id: str, journey_id: str) -> HTTPResponse:
    return await journey_page(request, await gate.require_account(request, account_id), journey_id)


@bp.post("/a/<account_id:id>/journeys/<journey_id:id>/active")
async def active(request: Request, account_id: str, journey_id: str) -> HTTPResponse:
    """``on`` "yes" turns it on (the CRM revalidates it and names every problem), "no" off."""
    account = await gate.require_account(request, account_id)
    on = forms.value(request, "on") == "yes"
    answer = await crm.call(request, account_id, "PUT", f"/v1/jornadas/{journey_id}/ativa", json={"ativa": on})
    if answer.status == 422 and on:
        journey = await journey_of(request, account_id, journey_id)
        count = len(journey.get("problemas") or answer.details)
        return await journey_page(request, account, journey_id, 422, errors={
            "_": f"This journey cannot be turned on yet: {count} problem{'' if count == 1 else 's'}, shown on "
                 "the steps below."})
    if not answer.ok:
        return await journey_page(request, account, journey_id, answer.status,
                                  errors=refusal(answer, {}, "turn journeys on and off"))
    return redirect(f"/a/{account_id}/journeys/{journey_id}?done={'on' if on else 'off'}", status=303)


@bp.post("/a/<account_id:id>/journeys/<journey_id:id>/delete")
async def delete(request: Request, account_id: str, journey_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "DELETE", f"/v1/jornadas/{journey_id}")
    if not answer.ok:
        return await journey_page(request, account, journey_id, answer.status,
                                  errors=refusal(answer, {}, "delete journeys"))
    return redirect(f"/a/{account_id}/journeys", status=303)
