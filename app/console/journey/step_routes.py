"""A journey's steps, each edited with a form of its kind (send: channel and content or a template;
wait: an amount and a unit; branch: a rule built as the segment editor builds one, and the steps to
go to; exit), added at a place in the flow, moved up or down and removed. Each change writes the
whole list of steps back (``PATCH /v1/jornadas/{id}`` with ``passos``), keeping every step's id so
branches still name their targets; the CRM then says what the journey lacks, on the step it names.
The CRM refuses step changes while the journey is on (409): the page says to turn it off first."""

from __future__ import annotations

import re

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.contact import crm
from app.console.journey import steps as words
from app.console.journey.routes import journey_of, journey_page, refusal
from app.console.segment import form as rules_form
from app.console.templating import render

bp = Blueprint("console_journey_step")
STEP_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
FIELD_OF_STEP = {"canal": "channel", "de": "from", "assunto": "subject", "texto": "text", "html": "html",
                 "modelo": "template", "variaveis": "variables", "segundos": "amount", "se_sim": "if_yes",
                 "se_nao": "if_no", "regra": "add-rule"}


async def _templates(request: Request, account_id: str) -> list[dict] | None:
    try:
        answer = await upstream.call(request, "GET", "/api/templates", tenant=account_id)
    except upstream.Unavailable:
        return None
    return answer.get("Templates", []) if answer.ok else None


async def _step_page(request: Request, account: dict, journey: dict, *, kind: str, step_id: str | None, at: int,
                     values: dict[str, str], match: str = "all", rows: list[dict] | None = None, status: int = 200,
                     errors: dict | None = None) -> HTTPResponse:
    account_id = account["Id"]
    steps = journey.get("passos") or []
    index = next((i for i, step in enumerate(steps) if step["id"] == step_id), at)
    lists = []
    if kind == "condicao":
        listed = await crm.read(request, account_id, "/v1/listas", params={"limit": "200"})
        lists = listed.get("listas", []) if listed is not None and listed.ok else []
    later = steps[index + 1:] if step_id else steps[at:]
    offset = index + 2 if step_id else at + 2  # the number each later step will have
    _, by_step, _ = words.problems_by_place(journey.get("problemas", []), steps)
    problems = {FIELD_OF_STEP.get(item["field"], "_"): item["words"] for item in by_step.get(index, [])} \
        if step_id else {}
    return render(request, "journey/step.html", status, section="journeys",
                  title=f"Step {index + 1}: " + (words.step_title(steps[index]) if step_id else words.STEP_KINDS[kind]), journey=journey, kind=kind, step_id=step_id,
                  at=at, number=index + 1, values={**values, "match": match}, rows=rows or [], errors=errors or {},
                  problems=problems, row_errors=errors or {}, lists=lists, kinds=rules_form.KINDS,
                  identifiers=rules_form.IDENTIFIERS, ops=rules_form.ATTRIBUTE_OPS, channels=words.CHANNELS,
                  targets=[(step["id"], f"Step {offset + n}: {words.step_title(step)}") for n, step in enumerate(later)],
                  templates=await _templates(request, account_id) if kind == "enviar" else [],
                  units=words.UNITS, admin=crm.can_edit(account), words=words)


def _at(request: Request, steps: list[dict]) -> int:
    raw = request.args.get("at") or (request.form or {}).get("at") or ""
    return min(int(raw), len(steps)) if raw.isdigit() and len(raw) < 4 else len(steps)


@bp.get("/a/<account_id:id>/journeys/<journey_id:id>/steps/new", ctx_query=("kind", "at"))
async def new_step(request: Request, account_id: str, journey_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    journey = await journey_of(request, account_id, journey_id)
    kind = request.args.get("kind") if request.args.get("kind") in words.STEP_KINDS else "enviar"
    rows = [rules_form.blank()] if kind == "condicao" else []
    return await _step_page(request, account, journey, kind=kind, step_id=None, at=_at(request, journey["passos"]),
                            values=words.step_values({"tipo": kind}), rows=rows)


def _find(journey: dict, step_id: str) -> dict:
    if not STEP_ID.fullmatch(step_id):
        raise gate.PageNotFound()
    for step in journey.get("passos") or []:
        if step["id"] == step_id:
            return step
    raise gate.PageNotFound()


@bp.get("/a/<account_id:id>/journeys/<journey_id:id>/steps/<step_id:slug>")
async def edit_step(request: Request, account_id: str, journey_id: str, step_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    journey = await journey_of(request, account_id, journey_id)
    step = _find(journey, step_id)
    match, rows = "all", []
    if step["tipo"] == "condicao":
        match, rows = rules_form.rows_of_rules(step.get("regra")) or ("all", [])
    return await _step_page(request, account, journey, kind=step["tipo"], step_id=step_id, at=0,
                            values=words.step_values(step), match=match, rows=rows)


async def _write_steps(request: Request, account_id: str, journey_id: str, steps: list[dict]) -> upstream.Answer:
    return await crm.call(request, account_id, "PATCH", f"/v1/jornadas/{journey_id}", json={"passos": steps})


async def _save(request: Request, account_id: str, journey_id: str, step_id: str | None) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    journey = await journey_of(request, account_id, journey_id)
    steps = list(journey.get("passos") or [])
    kind = _find(journey, step_id)["tipo"] if step_id else forms.value(request, "kind")
    if kind not in words.STEP_KINDS:
        raise gate.PageNotFound()
    at = _at(request, steps)
    values = forms.values(request, *words.STEP_FIELDS)
    values["html"] = forms.value(request, "html", strip=False).strip()
    form = request.form or {}
    match = "any" if form.get("match") == "any" else "all"
    rows = rules_form.rows_of_form(form)
    action = form.get("action") or "save"
    page = {"kind": kind, "step_id": step_id, "at": at, "values": values, "match": match}
    if action == "add" and len(rows) < rules_form.MAX_ROWS:  # the branch's rules without htmx
        return await _step_page(request, account, journey, rows=[*rows, rules_form.blank()], **page)
    if action.startswith("remove-") and action[7:].isdigit():
        return await _step_page(request, account, journey, rows=[r for i, r in enumerate(rows)
                                                                 if i != int(action[7:])], **page)
    errors: dict[str, str] = {}
    step = words.step_of(kind, step_id or words.new_step_id(steps), values, rows, match, errors)
    if errors:
        return await _step_page(request, account, journey, rows=rows, status=400, errors=errors, **page)
    if step_id:
        steps = [step if item["id"] == step_id else item for item in steps]
    else:
        steps.insert(at, step)
    answer = await _write_steps(request, account_id, journey_id, steps)
    if not answer.ok:
        detail = next(iter(answer.details), "")
        field = FIELD_OF_STEP.get(detail.rsplit(".", 1)[-1]) if detail.startswith("passos[") else None
        errors = {field: answer.message} if field and answer.status == 422 else \
            refusal(answer, {}, "change journeys")
        return await _step_page(request, account, journey, rows=rows, status=answer.status, errors=errors, **page)
    return redirect(f"/a/{account_id}/journeys/{journey_id}?done=step#step-{step['id']}", status=303)


@bp.post("/a/<account_id:id>/journeys/<journey_id:id>/steps")
async def create_step(request: Request, account_id: str, journey_id: str) -> HTTPResponse:
    return await _save(request, account_id, journey_id, None)


@bp.post("/a/<account_id:id>/journeys/<journey_id:id>/steps/<step_id:slug>")
async def save_step(request: Request, account_id: str, journey_id: str, step_id: str) -> HTTPResponse:
    return await _save(request, account_id, journey_id, step_id)


@bp.post("/a/<account_id:id>/journeys/<journey_id:id>/steps/<step_id:slug>/move")
async def move_step(request: Request, account_id: str, journey_id: str, step_id: str) -> HTTPResponse:
    """``direction`` up or down: the step swaps places with its neighbour (its id stays)."""
    account = await gate.require_account(request, account_id)
    journey = await journey_of(request, account_id, journey_id)
    _find(journey, step_id)
    steps = list(journey["passos"])
    index = next(i for i, step in enumerate(steps) if step["id"] == step_id)
    other = index - 1 if forms.value(request, "direction") == "up" else index + 1
    if 0 <= other < len(steps):
        steps[index], steps[other] = steps[other], steps[index]
        answer = await _write_steps(request, account_id, journey_id, steps)
        if not answer.ok:
            return await journey_page(request, account, journey_id, answer.status,
                                      errors=refusal(answer, {}, "change journeys"))
    return redirect(f"/a/{account_id}/journeys/{journey_id}?done=moved#step-{step_id}", status=303)


@bp.post("/a/<account_id:id>/journeys/<journey_id:id>/steps/<step_id:slug>/remove")
async def remove_step(request: Request, account_id: str, journey_id: str, step_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    journey = await journey_of(request, account_id, journey_id)
    _find(journey, step_id)
    steps = [step for step in journey["passos"] if step["id"] != step_id]
    answer = await _write_steps(request, account_id, journey_id, steps)
    if not answer.ok:
        return await journey_page(request, account, journey_id, answer.status,
                                  errors=refusal(answer, {}, "change journeys"))
    return redirect(f"/a/{account_id}/journeys/{journey_id}?done=removed", status=303)
