"""An account's alerts on CRM metrics: the list with the account's firing history, and an alert's
page (its state, its form, its own history). Created and edited with a form: a metric chosen from
the CRM's four, a threshold, a window in minutes, on or off (no JSON typed).
``GET/POST /v1/alertas``, ``GET/PATCH/DELETE /v1/alertas/{id}``, ``GET /v1/alertas/eventos``."""

from __future__ import annotations

import math

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.contact import crm
from app.console.templating import render

bp = Blueprint("console_alert")

# The CRM's metrics (docs/crm.md, "Alerts"), each with what its threshold counts.
METRICS = {
    "taxa_descadastro": ("Unsubscribe rate", "Contacts who opted out in the window, per 100 contacts of the account."),
    "queda_contatos": ("Drop in new contacts", ("Contacts created in the window against the window before, as a "
                                                "drop in percent (0 when it grew).")),
    "falhas_entrega": ("Failed deliveries", ("Deliveries to your destinations and conversion integrations whose last "
                                             "attempt in the window failed.")),
    "falhas_jornada": ("Failed journey steps", "Journey steps that failed in the window."),
}
KINDS = {"disparou": "Fired", "normalizou": "Back to normal", "reiniciado": "Reset by an edit"}
STATES = {"calm": "Calm", "firing": "Firing"}
MIN_WINDOW, MAX_WINDOW = 5, 31 * 24 * 60
HISTORY = 50  # events a page of the account's history shows


def _words() -> dict:
    return {"metrics": METRICS, "kinds": KINDS, "states": STATES}


async def _history(request: Request, account_id: str, limit: int, cursor: str | None = None,
                   alert_id: str | None = None) -> dict | None:
    params = {"limit": str(limit), **({"cursor": cursor} if cursor else {}), **({"alerta": alert_id} if alert_id else {})}
    found = await crm.read(request, account_id, "/v1/alertas/eventos", params=params)
    if found is None or not found.ok:
        return None
    return {"events": found.get("eventos", []), "next": found.get("proximo_cursor") if found.get("tem_mais") else None}


@bp.get("/a/<account_id:id>/alerts", ctx_query=("cursor",))
async def alerts(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    listed = await crm.read(request, account_id, "/v1/alertas", params={"limit": "200"})
    cursor = _cursor(request)
    return render(request, "alert/alerts.html", title="Alerts", admin=crm.can_edit(account),
                  alerts=listed.get("alertas", []) if listed is not None and listed.ok else None,
                  history=await _history(request, account_id, HISTORY, cursor), cursor=cursor, **_words())


def _form_page(request: Request, account: dict, *, alert: dict | None, values: dict, status: int = 200,
               errors: dict | None = None, history: dict | None = None, notice: str | None = None) -> HTTPResponse:
    return render(request, "alert/alert.html" if alert else "alert/new.html", status,
                  title=alert["nome"] if alert else "New alert", alert=alert, values=values, errors=errors or {},
                  admin=crm.can_edit(account), history=history, notice=notice, cursor=_cursor(request), **_words())


def _values_of(alert: dict) -> dict:
    limit = alert["limite"]
    return {"name": alert["nome"], "metric": alert["metrica"],
            "threshold": f"{limit:g}" if isinstance(limit, (int, float)) else str(limit),
            "window": str(alert["janela_minutos"]), "enabled": alert["ativo"]}


def _read(request: Request) -> tuple[dict, dict, dict]:
    """(what was typed, the CRM's body, the problems by field)."""
    form = request.form or {}
    values = {"name": (form.get("name") or "").strip()[:200], "metric": form.get("metric") or "",
              "threshold": (form.get("threshold") or "").strip()[:40], "window": (form.get("window") or "").strip()[:10],
              "enabled": form.get("enabled") == "on"}
    errors: dict[str, str] = {}
    if not values["name"]:
        errors["name"] = "Enter the alert's name"
    if values["metric"] not in METRICS:
        errors["metric"] = "Choose what the alert watches"
    try:
        threshold = float(values["threshold"].replace(",", "."))
        if threshold < 0 or not math.isfinite(threshold):
            raise ValueError
    except ValueError:
        threshold = 0.0
        errors["threshold"] = "Enter the threshold as a number, 0 or more, like 2 or 0.5"
    window = int(values["window"]) if values["window"].isdigit() else 0
    if not MIN_WINDOW <= window <= MAX_WINDOW:
        errors["window"] = f"Enter the window in whole minutes, between {MIN_WINDOW} and {MAX_WINDOW:,}"
    body = {"nome": values["name"], "metrica": values["metric"], "limite": threshold, "janela_minutos": window,
            "ativo": values["enabled"]}
    return values, body, errors


def _refusal(answer: upstream.Answer) -> dict:
    if answer.status == 403:
        return {"_": "Only owners and admins change alerts."}
    fields = {"nome": "name", "metrica": "metric", "limite": "threshold", "janela_minutos": "window"}
    for key, field in fields.items():
        if key in answer.details:
            return {field: f"{answer.message or 'Check this value'}"}
    return {"_": answer.message or "Herald could not save the alert. Try again."}


@bp.get("/a/<account_id:id>/alerts/new")
async def new(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return _form_page(request, account, alert=None,
                      values={"name": "", "metric": "taxa_descadastro", "threshold": "", "window": "60",
                              "enabled": True})


@bp.post("/a/<account_id:id>/alerts")
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values, body, errors = _read(request)
    if errors:
        return _form_page(request, account, alert=None, values=values, status=400, errors=errors)
    answer = await crm.call(request, account_id, "POST", "/v1/alertas", json=body)
    if not answer.ok:
        return _form_page(request, account, alert=None, values=values, status=answer.status, errors=_refusal(answer))
    return redirect(f"/a/{account_id}/alerts/{answer.get('alerta')['id']}?saved=created", status=303)


async def _alert(request: Request, account_id: str, alert_id: str) -> dict:
    found = await crm.call(request, account_id, "GET", f"/v1/alertas/{alert_id}")
    if not found.ok:
        raise upstream.Unavailable()
    return found.get("alerta")


def _cursor(request: Request) -> str | None:
    return (request.args.get("cursor") or "")[:500] or None


async def _own_history(request: Request, account_id: str, alert_id: str) -> dict | None:
    return await _history(request, account_id, HISTORY, _cursor(request), alert_id)


SAVED = {"created": "Alert created. Herald reads its metric now, then every minute.",
         "saved": "Alert saved. It starts again from calm and its metric is read now."}


@bp.get("/a/<account_id:id>/alerts/<alert_id:id>", ctx_query=("saved", "cursor"))
async def alert_page(request: Request, account_id: str, alert_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    # The history before the alert: an evaluation that commits between the two reads then shows in the
    # state as well, so the page never lists a "Fired" event beside a "Calm" state read before it.
    history = await _own_history(request, account_id, alert_id)
    alert = await _alert(request, account_id, alert_id)
    return _form_page(request, account, alert=alert, values=_values_of(alert), history=history,
                      notice=SAVED.get(request.args.get("saved") or ""))


@bp.post("/a/<account_id:id>/alerts/<alert_id:id>")
async def update(request: Request, account_id: str, alert_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    alert = await _alert(request, account_id, alert_id)
    values, body, errors = _read(request)
    if not errors:
        answer = await crm.call(request, account_id, "PATCH", f"/v1/alertas/{alert_id}", json=body)
        if answer.ok:
            return redirect(f"/a/{account_id}/alerts/{alert_id}?saved=saved", status=303)
        errors = _refusal(answer)
        status = answer.status
    else:
        status = 400
    return _form_page(request, account, alert=alert, values=values, status=status, errors=errors,
                      history=await _own_history(request, account_id, alert_id))


@bp.post("/a/<account_id:id>/alerts/<alert_id:id>/remove")
async def remove(request: Request, account_id: str, alert_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "DELETE", f"/v1/alertas/{alert_id}")
    if not answer.ok:
        alert = await _alert(request, account_id, alert_id)
        return _form_page(request, account, alert=alert, values=_values_of(alert), status=answer.status,
                          errors=_refusal(answer), history=await _own_history(request, account_id, alert_id))
    return redirect(f"/a/{account_id}/alerts", status=303)
