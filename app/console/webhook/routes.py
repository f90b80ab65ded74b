"""An account's webhook endpoints: the list, registering one (an https URL, its event types by
family, or all; the signing secret shown once), an endpoint's page (health, the secret rotated and
shown once, a test event sent, deliveries with each attempt and a replay, removal).
``GET /api/webhook-event-types``, ``GET/POST /api/webhooks``, ``GET/DELETE /api/webhooks/{id}``,
``PATCH /api/webhooks/{id}`` (on/off), ``POST .../rotate-secret``, ``.../test``, ``GET .../deliveries``, ``POST .../deliveries/{id}/retry``,
under ``X-Service-Tenant`` (the account's live endpoints; writes need the admin role)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.templating import render

bp = Blueprint("console_webhook")
FAMILIES = {"email": "E-mail", "sms": "SMS", "push": "Push", "whatsapp": "WhatsApp", "webhook": "The endpoint itself",
            "domain": "Domains"}
STATUSES = (("", "All"), ("succeeded", "Succeeded"), ("failed", "Failed"), ("pending", "Retrying"))


def _base(account_id: str, mode: str, webhook_id: str = "") -> str:
    return f"/a/{account_id}/webhooks" + (f"/{webhook_id}" if webhook_id else "") + _suffix(mode)


def _mode(request: Request) -> str:
    """The key mode whose endpoints the page shows: live, or test (``?mode=test``, or the form's field)."""
    chosen = request.args.get("mode")
    if not chosen and request.method == "POST":
        chosen = (request.form or {}).get("mode")
    return "test" if chosen == "test" else "live"


def _suffix(mode: str) -> str:
    return "?mode=test" if mode == "test" else ""


def families(types: list[str]) -> list[tuple[str, list[str]]]:
    """The catalog grouped by family (``email.delivered`` under ``email``), "*" left out."""
    grouped: dict[str, list[str]] = {}
    for name in types:
        if name != "*":
            grouped.setdefault(name.split(".")[0], []).append(name)
    return [(FAMILIES.get(family, family.capitalize()), names) for family, names in sorted(grouped.items())]


async def _list_page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    mode = _mode(request)
    listed = await upstream.call(request, "GET", "/api/webhooks", tenant=account["Id"],
                                 params={"limit": "100", "mode": mode})
    if listed.status == 404:
        raise gate.PageNotFound()
    catalog = await upstream.call(request, "GET", "/api/webhook-event-types", tenant=account["Id"])
    context.setdefault("values", {"url": "", "description": "", "events": ["*"]})
    return render(request, "webhook/webhooks.html", status, fragment="webhook/_list.html", title="Webhooks",
                  webhooks=listed.get("Webhooks", []) if listed.ok else None,
                  families=families(catalog.get("EventTypes", []) if catalog.ok else []),
                  admin=gate.is_admin(account), mode=mode, suffix=_suffix(mode), **context)


@bp.get("/a/<account_id:id>/webhooks", ctx_query=("mode",))
async def webhooks(request: Request, account_id: str) -> HTTPResponse:
    return await _list_page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/webhooks")
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    form = request.form or {}
    url = (form.get("url") or "").strip()
    description = (form.get("description") or "").strip()
    events = ["*"] if "*" in form.getlist("events", []) else form.getlist("events", [])[:100]
    values = {"url": url, "description": description, "events": events}
    errors = {}
    if not url.startswith(("https://", "http://")):
        errors["url"] = "Enter the endpoint's URL, starting with https://"
    elif len(url) > 2048:
        errors["url"] = "The URL must be 2048 characters or less"
    if len(description) > 500:
        errors["description"] = "The description must be 500 characters or less"
    if not events:
        errors["events-all"] = "Select at least one event"
    if errors:
        return await _list_page(request, account, 400, errors=errors, values=values)
    answer = await upstream.call(request, "POST", "/api/webhooks", tenant=account_id, params={"mode": _mode(request)},
                                 json={"Url": url, "EventTypes": events, "Description": description})
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.status == 403:
        return await _list_page(request, account, 403, values=values,
                                errors={"_": "Only owners and admins add webhook endpoints."})
    if not answer.ok:
        field = "events-all" if "EventTypes" in answer.details else "url"
        return await _list_page(request, account, answer.status, values=values,
                                errors={field: answer.message or "Check the endpoint"})
    return await _endpoint_page(request, account, answer.get("Webhook")["Id"], 201, secret=answer.get("Webhook"))


async def _endpoint_page(request: Request, account: dict, webhook_id: str, status: int = 200,
                         **context) -> HTTPResponse:
    mode = _mode(request)
    found = await upstream.call(request, "GET", f"/api/webhooks/{webhook_id}", tenant=account["Id"],
                                params={"mode": mode})
    if found.status == 404:
        raise gate.PageNotFound()
    if not found.ok:
        raise upstream.Unavailable()
    chosen = request.args.get("status") or ""
    chosen = chosen if chosen in dict(STATUSES) else ""
    params = {"limit": "50", "mode": mode, **({"status": chosen} if chosen else {})}
    listed = await upstream.call(request, "GET", f"/api/webhooks/{webhook_id}/deliveries", tenant=account["Id"],
                                 params=params)
    return render(request, "webhook/webhook.html", status, fragment="webhook/_deliveries.html",
                  title="Webhook endpoint", webhook=found.get("Webhook"), statuses=STATUSES, chosen=chosen,
                  deliveries=listed.get("Deliveries", []) if listed.ok else None, admin=gate.is_admin(account),
                  mode=mode, suffix=_suffix(mode), **context)


@bp.get("/a/<account_id:id>/webhooks/<webhook_id:id>", ctx_query=("status", "mode"))
async def endpoint(request: Request, account_id: str, webhook_id: str) -> HTTPResponse:
    return await _endpoint_page(request, await gate.require_account(request, account_id), webhook_id)


async def _write(request: Request, account_id: str, webhook_id: str, path: str,
                 method: str = "POST") -> tuple[dict, upstream.Answer]:
    account = await gate.require_account(request, account_id)
    answer = await upstream.call(request, method, f"/api/webhooks/{webhook_id}{path}", tenant=account_id,
                                 params={"mode": _mode(request)})
    if answer.status == 404:
        raise gate.PageNotFound()
    return account, answer


async def _after(request: Request, account: dict, webhook_id: str, answer, notice: str, **context) -> HTTPResponse:
    if answer.status == 403:
        return await _endpoint_page(request, account, webhook_id, 403,
                                    errors={"_": "Only owners and admins change webhook endpoints."})
    if not answer.ok:
        return await _endpoint_page(request, account, webhook_id, answer.status,
                                    errors={"_": answer.message or "Herald could not do this. Try again."})
    return await _endpoint_page(request, account, webhook_id, notice=notice, **context)


@bp.post("/a/<account_id:id>/webhooks/<webhook_id:id>/rotate")
async def rotate(request: Request, account_id: str, webhook_id: str) -> HTTPResponse:
    account, answer = await _write(request, account_id, webhook_id, "/rotate-secret")
    return await _after(request, account, webhook_id, answer, "A new signing secret is in use; the old one "
                        "keeps signing for a day so you can switch over.", secret=answer.get("Webhook"))


@bp.post("/a/<account_id:id>/webhooks/<webhook_id:id>/test")
async def send_test(request: Request, account_id: str, webhook_id: str) -> HTTPResponse:
    account, answer = await _write(request, account_id, webhook_id, "/test")
    return await _after(request, account, webhook_id, answer,
                        "A test event is on its way; its delivery appears below within seconds.")


@bp.post("/a/<account_id:id>/webhooks/<webhook_id:id>/deliveries/<delivery_id:id>/replay")
async def replay(request: Request, account_id: str, webhook_id: str, delivery_id: str) -> HTTPResponse:
    account, answer = await _write(request, account_id, webhook_id, f"/deliveries/{delivery_id}/retry")
    return await _after(request, account, webhook_id, answer,
                        "The delivery is sent again now (the same event, the same id).")


@bp.post("/a/<account_id:id>/webhooks/<webhook_id:id>/enable")
async def enable(request: Request, account_id: str, webhook_id: str) -> HTTPResponse:
    """Turns the endpoint on (again, after Herald disabled it for failing) or off."""
    account = await gate.require_account(request, account_id)
    enabled = (request.form or {}).get("enabled") != "false"
    answer = await upstream.call(request, "PATCH", f"/api/webhooks/{webhook_id}", tenant=account_id,
                                 params={"mode": _mode(request)}, json={"Enabled": enabled})
    if answer.status == 404:
        raise gate.PageNotFound()
    return await _after(request, account, webhook_id, answer, "The endpoint is on: new events are sent to it."
                        if enabled else "The endpoint is off: no event is sent to it until you turn it on.")


@bp.post("/a/<account_id:id>/webhooks/<webhook_id:id>/remove")
async def remove(request: Request, account_id: str, webhook_id: str) -> HTTPResponse:
    account, answer = await _write(request, account_id, webhook_id, "", method="DELETE")
    if not answer.ok:
        return await _after(request, account, webhook_id, answer, "")
    return redirect(_base(account_id, _mode(request)), status=303)
