"""An account's conversion integrations: which CRM events become which conversion on the Meta
Conversions API or GA4's Measurement Protocol. The list, a form to add one (its kind, that kind's
settings, the access token or API secret typed into a password field, and a conversion name per CRM
event: no JSON typed), and an integration's page: its health, "Send a test" followed to its result,
its deliveries with their attempts, the form to change it (the token left empty keeps the current
one: the CRM never shows it again), removal.
``GET/POST /v1/integracoes-de-conversao``, ``GET/PUT/DELETE .../{id}``, ``GET .../entregas``, ``POST .../testar``."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.contact import crm
from app.console.destination import deliveries
from app.console.templating import is_htmx, render

bp = Blueprint("console_integration")
PATH = "/v1/integracoes-de-conversao"
KINDS = {"meta_capi": ("Meta Conversions API", ("Sends each event to your Meta pixel (dataset), with the contact's "
                                                "e-mail and phone hashed.")),
         "ga4": ("Google Analytics 4", "Sends each event to your GA4 property through the Measurement Protocol.")}
SETTINGS = {"meta_capi": ("pixel_id", "access_token", "test_event_code"), "ga4": ("measurement_id", "api_secret")}
SECRETS = ("access_token", "api_secret")
PLAIN = ("name", "pixel_id", "test_event_code", "measurement_id")


def _map_id(event: str) -> str:
    return "map-" + event.replace(".", "-")


def _base(account_id: str, integration_id: str = "") -> str:
    return f"/a/{account_id}/integrations" + (f"/{integration_id}" if integration_id else "")


def _words() -> dict:
    return {"kinds": KINDS, "events": deliveries.EVENTS, "map_ids": {e: _map_id(e) for e in deliveries.EVENTS}}


@bp.get("/a/<account_id:id>/integrations")
async def integrations(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    listed = await crm.read(request, account_id, PATH, params={"limit": "200"})
    return render(request, "integration/integrations.html", title="Conversion integrations",
                  admin=crm.can_edit(account),
                  integrations=listed.get("integracoes", []) if listed is not None and listed.ok else None, **_words())


def _read(request: Request, existing: dict | None) -> tuple[dict, dict, dict]:
    """(what was typed, the CRM's body, the problems by field). The secrets are never put back in
    ``values``: a page shown again asks for them again."""
    form = request.form or {}
    values = {name: (form.get(name) or "").strip()[:1024] for name in PLAIN}
    values.update(kind=form.get("kind") or "", enabled=form.get("enabled") == "on",
                  maps={event: (form.get(_map_id(event)) or "").strip()[:40] for event in deliveries.EVENTS})
    errors: dict[str, str] = {}
    if not values["name"]:
        errors["name"] = "Enter the integration's name"
    if values["kind"] not in KINDS:
        errors["kind"] = "Choose where conversions go"
    mappings = {event: name for event, name in values["maps"].items() if name}
    if not mappings:
        errors[_map_id(next(iter(deliveries.EVENTS)))] = "Name the conversion of at least one event"
    body = {"nome": values["name"], "tipo": values["kind"], "ativo": values["enabled"], "mapeamentos": mappings}
    keeps = existing is not None and existing["tipo"] == values["kind"]
    for name in SETTINGS.get(values["kind"], ()):
        given = (form.get(name) or "").strip()[:1024] if name in SECRETS else values[name]
        if given:
            body[name] = given
        elif name in SECRETS and not keeps:
            errors[name] = "Enter the access token" if name == "access_token" else "Enter the API secret"
        elif name in ("pixel_id", "measurement_id"):
            errors[name] = "Enter the pixel id" if name == "pixel_id" else "Enter the measurement id, like G-XXXXXXX"
    return values, body, errors


def _refusal(answer: upstream.Answer) -> dict:
    if answer.status == 403:
        return {"_": "Only owners and admins change conversion integrations."}
    first_map = _map_id(next(iter(deliveries.EVENTS)))
    fields = {"nome": ("name", "The name"), "tipo": ("kind", "The kind:"), "mapeamentos": (first_map, "Conversion names:"),
              "pixel_id": ("pixel_id", "The pixel id"), "access_token": ("access_token", "The access token"),
              "test_event_code": ("test_event_code", "The test event code"),
              "measurement_id": ("measurement_id", "The measurement id"), "api_secret": ("api_secret", "The API secret")}
    for key, (field, label) in fields.items():
        if isinstance(answer.details.get(key), str):  # the CRM's words for the problem, after the field's name
            return {field: f"{label} {answer.details[key].rstrip('.')}."}
        if key in answer.details:
            return {field: answer.message or "Check this value"}
    return {"_": answer.message or "Herald could not save the integration. Try again."}


def _new_page(request: Request, account: dict, values: dict, status: int = 200, errors: dict | None = None):
    return render(request, "integration/new.html", status, title="New conversion integration", values=values,
                  errors=errors or {}, admin=crm.can_edit(account), integration=None, **_words())


@bp.get("/a/<account_id:id>/integrations/new")
async def new(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values = {**{name: "" for name in PLAIN}, "kind": "meta_capi", "enabled": True,
              "maps": {event: "Lead" if event == "contact.created" else "" for event in deliveries.EVENTS}}
    return _new_page(request, account, values)


@bp.post("/a/<account_id:id>/integrations")
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values, body, errors = _read(request, None)
    if errors:
        return _new_page(request, account, values, 400, errors)
    answer = await crm.call(request, account_id, "POST", PATH, json=body)
    if not answer.ok:
        return _new_page(request, account, values, answer.status, _refusal(answer))
    return redirect(f"{_base(account_id, answer.get('integracao')['id'])}?done=created", status=303)


async def _integration(request: Request, account_id: str, integration_id: str) -> dict:
    found = await crm.call(request, account_id, "GET", f"{PATH}/{integration_id}")
    if not found.ok:
        raise upstream.Unavailable()
    return found.get("integracao")


def _values_of(integration: dict) -> dict:
    config = integration.get("configuracao") or {}
    return {"name": integration["nome"], "kind": integration["tipo"], "enabled": integration["ativo"],
            "pixel_id": config.get("pixel_id") or "", "test_event_code": config.get("test_event_code") or "",
            "measurement_id": config.get("measurement_id") or "",
            "maps": {event: (integration.get("mapeamentos") or {}).get(event, "") for event in deliveries.EVENTS}}


async def _page(request: Request, account: dict, integration_id: str, status: int = 200, *,
                integration: dict | None = None, values: dict | None = None, **context) -> HTTPResponse:
    account_id = account["Id"]
    # The deliveries first: the health read after them is as fresh (the CRM writes both at once).
    shown = await deliveries.context(request, account_id, f"{PATH}/{integration_id}", _base(account_id, integration_id))
    integration = integration or await _integration(request, account_id, integration_id)
    return render(request, "integration/integration.html", status, fragment="destination/_deliveries.html",
                  title=integration["nome"], integration=integration, values=values or _values_of(integration),
                  admin=crm.can_edit(account), answerer=KINDS.get(integration["tipo"], ("The ad platform",))[0],
                  target=integration, refreshing=is_htmx(request),
                  **_words(), **shown, **context)


NOTICES = {"created": "Conversion integration added. Send a test to check its settings.",
           "saved": "Conversion integration saved."}  # a test: the deliveries say where it is


@bp.get("/a/<account_id:id>/integrations/<integration_id:id>", ctx_query=("done", "test", "poll"))
async def integration_page(request: Request, account_id: str, integration_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _page(request, account, integration_id, notice=NOTICES.get(request.args.get("done") or ""))


@bp.post("/a/<account_id:id>/integrations/<integration_id:id>")
async def replace(request: Request, account_id: str, integration_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    integration = await _integration(request, account_id, integration_id)
    values, body, errors = _read(request, integration)
    status = 400
    if not errors:
        answer = await crm.call(request, account_id, "PUT", f"{PATH}/{integration_id}", json=body)
        if answer.ok:
            return redirect(f"{_base(account_id, integration_id)}?done=saved", status=303)
        errors, status = _refusal(answer), answer.status
    return await _page(request, account, integration_id, status, integration=integration, values=values,
                       errors=errors)


@bp.post("/a/<account_id:id>/integrations/<integration_id:id>/test")
async def send_test(request: Request, account_id: str, integration_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "POST", f"{PATH}/{integration_id}/testar")
    if not answer.ok:
        errors = {"_": "Only owners and admins send tests." if answer.status == 403 else
                  answer.message or "Herald could not queue the test. Try again."}
        return await _page(request, account, integration_id, answer.status, errors=errors)
    return redirect(f"{_base(account_id, integration_id)}?done=tested&test={answer.get('entrega')['id']}", status=303)


@bp.post("/a/<account_id:id>/integrations/<integration_id:id>/remove")
async def remove(request: Request, account_id: str, integration_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "DELETE", f"{PATH}/{integration_id}")
    if not answer.ok:
        return await _page(request, account, integration_id, answer.status, errors=_refusal(answer))
    return redirect(_base(account_id), status=303)
