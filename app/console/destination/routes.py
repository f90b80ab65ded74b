"""An account's destinations: HTTPS endpoints that receive its CRM events, signed. The list, a form
to add one (the URL, its events as checkboxes, a note, on or off; the signing secret shown once on
the page that answers it, never in an address or a log), and a destination's page: its health,
"Send a test" followed to its result, its deliveries with their attempts, the form to change it, a
new secret (shown once), removal.
``GET/POST /v1/destinos``, ``GET/PATCH/DELETE /v1/destinos/{id}``, ``POST .../segredo``,
``GET .../entregas``, ``POST .../testar``."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.contact import crm
from app.console.destination import deliveries
from app.console.templating import is_htmx, render

bp = Blueprint("console_destination")
FIELDS = {"url": ("url", "The URL"), "eventos": ("events", "The events:"), "descricao": ("description", "The note")}


def _base(account_id: str, destination_id: str = "") -> str:
    return f"/a/{account_id}/destinations" + (f"/{destination_id}" if destination_id else "")


@bp.get("/a/<account_id:id>/destinations")
async def destinations(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    listed = await crm.read(request, account_id, "/v1/destinos", params={"limit": "200"})
    return render(request, "destination/destinations.html", title="Destinations", admin=crm.can_edit(account),
                  destinations=listed.get("destinos", []) if listed is not None and listed.ok else None,
                  events=deliveries.EVENTS)


def _read(request: Request) -> tuple[dict, dict]:
    form = request.form or {}
    chosen = [name for name in form.getlist("events", []) if name in deliveries.EVENTS]
    values = {"url": (form.get("url") or "").strip()[:2048], "description": (form.get("description") or "").strip(),
              "events": chosen, "enabled": form.get("enabled") == "on"}
    errors = {}
    if not values["url"].startswith(("https://", "http://")):
        errors["url"] = "Enter the endpoint's URL, starting with https://"
    if len(values["description"]) > 200:
        errors["description"] = "The note must be 200 characters or less"
    if not chosen:
        errors["events"] = "Choose at least one event"
    return values, errors


def _refusal(answer: upstream.Answer) -> dict:
    if answer.status == 403:
        return {"_": "Only owners and admins change destinations."}
    for key, (field, label) in FIELDS.items():
        if isinstance(answer.details.get(key), str):  # the CRM's words for the problem, after the field's name
            return {field: f"{label} {answer.details[key].rstrip('.')}."}
        if key in answer.details:
            return {field: answer.message or "Check this value"}
    return {"_": answer.message or "Herald could not save the destination. Try again."}


def _body(values: dict) -> dict:
    return {"url": values["url"], "eventos": values["events"], "descricao": values["description"],
            "ativo": values["enabled"]}


def _new_page(request: Request, account: dict, values: dict, status: int = 200, errors: dict | None = None):
    return render(request, "destination/new.html", status, title="New destination", values=values,
                  errors=errors or {}, events=deliveries.EVENTS, admin=crm.can_edit(account))


@bp.get("/a/<account_id:id>/destinations/new")
async def new(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return _new_page(request, account, {"url": "", "description": "", "events": list(deliveries.EVENTS),
                                        "enabled": True})


@bp.post("/a/<account_id:id>/destinations")
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values, errors = _read(request)
    if errors:
        return _new_page(request, account, values, 400, errors)
    answer = await crm.call(request, account_id, "POST", "/v1/destinos", json=_body(values))
    if not answer.ok:
        return _new_page(request, account, values, answer.status, _refusal(answer))
    # The secret goes in this answer's page only: a redirect would have to carry it in its address.
    return await _page(request, account, answer.get("destino")["id"], 201, secret=answer.get("segredo"),
                       notice="Destination added. Copy its signing secret now.")


async def _destination(request: Request, account_id: str, destination_id: str) -> dict:
    found = await crm.call(request, account_id, "GET", f"/v1/destinos/{destination_id}")
    if not found.ok:
        raise upstream.Unavailable()
    return found.get("destino")


async def _page(request: Request, account: dict, destination_id: str, status: int = 200, *,
                values: dict | None = None, **context) -> HTTPResponse:
    account_id = account["Id"]
    # The deliveries first: the health read after them is as fresh (the CRM writes both at once).
    shown = await deliveries.context(request, account_id, f"/v1/destinos/{destination_id}",
                                     _base(account_id, destination_id))
    destination = await _destination(request, account_id, destination_id)
    values = values or {"url": destination["url"], "description": destination["descricao"],
                        "events": destination["eventos"], "enabled": destination["ativo"]}
    return render(request, "destination/destination.html", status, fragment="destination/_deliveries.html",
                  title="Destination", destination=destination, values=values, events=deliveries.EVENTS,
                  admin=crm.can_edit(account), secret=context.pop("secret", None), answerer="The endpoint",
                  target=destination, refreshing=is_htmx(request),
                  **shown, **context)


NOTICES = {"saved": "Destination saved."}  # a test: the deliveries say where it is


@bp.get("/a/<account_id:id>/destinations/<destination_id:id>", ctx_query=("done", "test", "poll"))
async def destination_page(request: Request, account_id: str, destination_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _page(request, account, destination_id, notice=NOTICES.get(request.args.get("done") or ""))


@bp.post("/a/<account_id:id>/destinations/<destination_id:id>")
async def update(request: Request, account_id: str, destination_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values, errors = _read(request)
    status = 400
    if not errors:
        answer = await crm.call(request, account_id, "PATCH", f"/v1/destinos/{destination_id}", json=_body(values))
        if answer.ok:
            return redirect(f"{_base(account_id, destination_id)}?done=saved", status=303)
        errors, status = _refusal(answer), answer.status
    return await _page(request, account, destination_id, status, values=values, errors=errors)


@bp.post("/a/<account_id:id>/destinations/<destination_id:id>/test")
async def send_test(request: Request, account_id: str, destination_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "POST", f"/v1/destinos/{destination_id}/testar")
    if not answer.ok:
        errors = {"_": "Only owners and admins send tests." if answer.status == 403 else
                  answer.message or "Herald could not queue the test. Try again."}
        return await _page(request, account, destination_id, answer.status, errors=errors)
    queued = answer.get("entrega")["id"]
    return redirect(f"{_base(account_id, destination_id)}?done=tested&test={queued}", status=303)


@bp.post("/a/<account_id:id>/destinations/<destination_id:id>/secret")
async def rotate(request: Request, account_id: str, destination_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "POST", f"/v1/destinos/{destination_id}/segredo")
    if not answer.ok:
        return await _page(request, account, destination_id, answer.status, errors=_refusal(answer))
    return await _page(request, account, destination_id, secret=answer.get("segredo"),
                       notice="A new signing secret is in use; the old one stopped signing. Copy it now.")


@bp.post("/a/<account_id:id>/destinations/<destination_id:id>/remove")
async def remove(request: Request, account_id: str, destination_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "DELETE", f"/v1/destinos/{destination_id}")
    if not answer.ok:
        return await _page(request, account, destination_id, answer.status, errors=_refusal(answer))
    return redirect(_base(account_id), status=303)
