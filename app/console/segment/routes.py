"""An account's segments: the list, and the editor, where the rules are built with a form (no JSON
typed: app/console/segment/form.py) and the reach is previewed as they change (htmx posts the form
to ``/segments/reach`` on each change, the CRM counts and saves nothing).
``GET/POST /v1/segmentos``, ``GET/PUT /v1/segmentos/{id}``, ``POST /v1/segmentos/previa``, ``GET /v1/listas``."""

from __future__ import annotations

import json

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.contact import crm
from app.console.segment import form as rules_form
from app.console.templating import render

bp = Blueprint("console_segment")


@bp.get("/a/<account_id:id>/segments")
async def segments(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    listed = await crm.read(request, account_id, "/v1/segmentos", params={"limit": "200"})
    return render(request, "segment/segments.html", title="Segments", admin=crm.can_edit(account),
                  segments=listed.get("segmentos", []) if listed is not None and listed.ok else None)


async def _lists(request: Request, account_id: str) -> list[dict]:
    listed = await crm.read(request, account_id, "/v1/listas", params={"limit": "200"})
    return listed.get("listas", []) if listed is not None and listed.ok else []


async def _reach(request: Request, account_id: str, rules: dict | None) -> dict:
    """What the reach panel shows: a count and a sample, or why there is none."""
    if rules is None:
        return {"problem": "Complete the rules to see how many contacts they reach."}
    try:
        answer = await crm.call(request, account_id, "POST", "/v1/segmentos/previa", json={"regras": rules})
    except upstream.Unavailable:
        return {"problem": "The reach is unavailable just now."}
    if not answer.ok:
        return {"problem": answer.message or "These rules cannot be counted."}
    return {"count": answer.get("alcance", 0), "sample": answer.get("amostra", [])}


async def _editor(request: Request, account: dict, *, segment: dict | None, name: str, match: str,
                  rows: list[dict], status: int = 200, errors: dict | None = None, reach: bool = True,
                  raw_rules: str | None = None, notice: str | None = None) -> HTTPResponse:
    account_id = account["Id"]
    rules, problems = rules_form.rules_of(match, rows)
    shown = await _reach(request, account_id, rules) if reach and raw_rules is None else {}
    return render(request, "segment/editor.html", status, fragment="segment/_rules.html",
                  title=segment["nome"] if segment else "New segment", segment=segment,
                  values={"name": name, "match": match}, rows=rows, lists=await _lists(request, account_id),
                  reach=shown, errors=errors or {}, row_errors=problems if errors else {},
                  kinds=rules_form.KINDS, identifiers=rules_form.IDENTIFIERS, ops=rules_form.ATTRIBUTE_OPS,
                  channels=rules_form.CHANNELS, admin=crm.can_edit(account), raw_rules=raw_rules, notice=notice,
                  action_url=_action_url(account_id, segment["id"] if segment else None))


def _action_url(account_id: str, segment_id: str | None) -> str:
    return f"/a/{account_id}/segments" + (f"/{segment_id}" if segment_id else "")


@bp.get("/a/<account_id:id>/segments/new")
async def new(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _editor(request, account, segment=None, name="", match="all", rows=[rules_form.blank()])


@bp.get("/a/<account_id:id>/segments/<segment_id:id>", ctx_query=("saved",))
async def edit(request: Request, account_id: str, segment_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    found = await crm.call(request, account_id, "GET", f"/v1/segmentos/{segment_id}")
    if not found.ok:
        raise upstream.Unavailable()
    segment = found.get("segmento")
    editable = rules_form.rows_of_rules(segment.get("regras"))
    if editable is None:
        return await _editor(request, account, segment=segment, name=segment["nome"], match="all", rows=[],
                             raw_rules=json.dumps(segment.get("regras"), indent=2, ensure_ascii=False))
    match, rows = editable
    return await _editor(request, account, segment=segment, name=segment["nome"], match=match, rows=rows,
                         notice="Segment saved." if request.args.get("saved") else None)


def _read(request: Request) -> tuple[str, str, list[dict], str]:
    form = request.form or {}
    name = (form.get("name") or "").strip()[:200]
    match = "any" if form.get("match") == "any" else "all"
    rows = rules_form.rows_of_form(form)
    action = form.get("action") or "save"
    if action == "add" and len(rows) < rules_form.MAX_ROWS:
        rows.append(rules_form.blank())
    elif action.startswith("remove-") and action[7:].isdigit() and int(action[7:]) < len(rows):
        rows.pop(int(action[7:]))
    return name, match, rows, action


@bp.post("/a/<account_id:id>/segments/editor")
async def editor(request: Request, account_id: str) -> HTTPResponse:
    """htmx: the rules again after a row was added, removed or changed kind (and the reach, out of band)."""
    account = await gate.require_account(request, account_id)
    name, match, rows, _ = _read(request)
    return await _editor(request, account, segment=None, name=name, match=match, rows=rows)


@bp.post("/a/<account_id:id>/segments/reach")
async def reach(request: Request, account_id: str) -> HTTPResponse:
    """htmx: how many contacts the rules being edited reach; nothing is saved."""
    await gate.require_account(request, account_id)
    _, match, rows, _ = _read(request)
    rules, _ = rules_form.rules_of(match, rows)
    return render(request, "segment/_reach.html", reach=await _reach(request, account_id, rules))


async def _save(request: Request, account_id: str, segment_id: str | None) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    segment = None
    if segment_id:
        found = await crm.call(request, account_id, "GET", f"/v1/segmentos/{segment_id}")
        if not found.ok:
            raise upstream.Unavailable()
        segment = found.get("segmento")
    name, match, rows, action = _read(request)
    if action != "save":  # the page without htmx: a row added or removed
        return await _editor(request, account, segment=segment, name=name, match=match, rows=rows)
    rules, problems = rules_form.rules_of(match, rows)
    errors = dict(problems)
    if not name:
        errors = {"name": "Enter the segment's name", **errors}
    if errors:
        return await _editor(request, account, segment=segment, name=name, match=match, rows=rows, status=400,
                             errors=errors)
    body = {"nome": name, "regras": rules}
    answer = await (crm.call(request, account_id, "PUT", f"/v1/segmentos/{segment_id}", json=body) if segment_id
                    else crm.call(request, account_id, "POST", "/v1/segmentos", json=body))
    if answer.status == 403:
        errors = {"_": "Only owners and admins save segments."}
    elif not answer.ok:
        errors = {"_": answer.message or "Herald could not save the segment. Try again."}
    if errors:
        return await _editor(request, account, segment=segment, name=name, match=match, rows=rows,
                             status=answer.status, errors=errors)
    saved = answer.get("segmento")
    return redirect(f"/a/{account_id}/segments/{saved['id']}?saved=1", status=303)


@bp.post("/a/<account_id:id>/segments")
async def create(request: Request, account_id: str) -> HTTPResponse:
    return await _save(request, account_id, None)


@bp.post("/a/<account_id:id>/segments/<segment_id:id>")
async def replace(request: Request, account_id: str, segment_id: str) -> HTTPResponse:
    return await _save(request, account_id, segment_id)
