"""Platform alerts for staff: the rules (create, edit, remove) and their firings and recoveries.

``GET/POST /api/admin/platform-alerts``, ``PUT/DELETE /api/admin/platform-alerts/{id}`` (PUT replaces
the whole rule and resets it to calm), ``GET /api/admin/platform-alerts/events``. The scheduler
measures every rule each minute and e-mails staff when one fires (docs/operator.md).
"""

from __future__ import annotations

import asyncio

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.staff import removal
from app.console.templating import render

bp = Blueprint("console_staff_alerts")
METRICS = (("failure_rate", "Failure rate of a channel (failed / accepted, every account)"),
           ("bounce_rate", "Bounce rate (bounced / sent), of one account or the platform"),
           ("queue_depth", "Queue depth (messages waiting now)"),
           ("relay_lag", "Relay lag (seconds the oldest outbox row has waited)"))
CHANNELS = (("", "Any channel"), ("email", "E-mail"), ("sms", "SMS"), ("push", "Push"), ("whatsapp", "WhatsApp"))
RATES = ("failure_rate", "bounce_rate")
WINDOW_MAX = 7 * 24 * 60
FIELDS = {"Name": "name", "Metric": "metric", "Channel": "channel", "TenantId": "tenant", "Threshold": "threshold",
          "WindowMinutes": "window", "body": "_"}
DONE = {"created": "The rule is saved; it is measured every minute.", "saved": "The rule is saved and calm again.",
        "removed": "The rule and its firings are removed."}


async def _rules(request: Request) -> upstream.Answer:
    return await upstream.call(request, "GET", "/api/admin/platform-alerts", params={"limit": "200"})


async def page(request: Request, status: int = 200, **context) -> HTTPResponse:
    rules, events = await asyncio.gather(
        _rules(request), upstream.call(request, "GET", "/api/admin/platform-alerts/events", params={"limit": "50"}))
    if request.args.get("done") in DONE:
        context.setdefault("notice", DONE[request.args.get("done")])
    context.setdefault("values", {"window": "60", "metric": "failure_rate", "channel": "email"})
    return render(request, "staff/alerts.html", status, title="Platform alerts", section="alerts", metrics=METRICS,
                  channels=CHANNELS, rules=rules.get("Alerts") if rules.ok else None,
                  events=events.get("Events") if events.ok else None, **context)


def _number(raw: str) -> float | None:
    """A threshold as typed: ``0.05``, ``5%`` (a rate), ``1,000`` (a depth)."""
    text = raw.replace(",", "").replace(" ", "")
    percent = text.endswith("%")
    try:
        number = float(text.rstrip("%"))
    except ValueError:
        return None
    return number / 100 if percent else number


def _rule(request: Request) -> tuple[dict, dict, dict]:
    """The form as the platform's body, the values as typed, and the refusals beside their fields."""
    values = forms.values(request, "name", "metric", "channel", "tenant", "threshold", "window")
    errors: dict[str, str] = {}
    if not values["name"]:
        errors["name"] = "Enter a name for the rule"
    elif len(values["name"]) > 200:
        errors["name"] = "Name must be 200 characters or less"
    if values["metric"] not in dict(METRICS):
        errors["metric"] = "Choose what to measure"
    if values["channel"] not in dict(CHANNELS):
        errors["channel"] = "Choose a channel"
    threshold = _number(values["threshold"])
    if not values["threshold"]:
        errors["threshold"] = "Enter the threshold"
    elif threshold is None or threshold < 0:
        errors["threshold"] = "Threshold must be a number, 0 or more"
    elif values["metric"] in RATES and threshold > 1:
        errors["threshold"] = "A rate's threshold must be between 0 and 1 (or 0% and 100%)"
    window = values["window"] or "60"
    if not window.isdigit() or not 1 <= int(window) <= WINDOW_MAX:
        errors["window"] = f"Window must be a whole number of minutes between 1 and {WINDOW_MAX}"
    body = {"Name": values["name"], "Metric": values["metric"], "Threshold": threshold,
            "WindowMinutes": int(window) if window.isdigit() else 60}
    if values["channel"]:
        body["Channel"] = values["channel"]
    if values["tenant"]:
        body["TenantId"] = values["tenant"]
    return body, values, errors


def _refused(answer: upstream.Answer) -> dict[str, str]:
    found = {FIELDS[name]: str(reason) for name, reason in answer.details.items() if name in FIELDS}
    return found or {"_": answer.message or "The rule could not be saved. Try again"}


@bp.get("/staff/alerts", ctx_query=("done",))
async def alerts(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    return await page(request)


@bp.post("/staff/alerts")
async def create(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    body, values, errors = _rule(request)
    if errors:
        return await page(request, 400, errors=errors, values=values)
    answer = await upstream.call(request, "POST", "/api/admin/platform-alerts", json=body)
    if not answer.ok:
        return await page(request, answer.status, errors=_refused(answer), values=values)
    return redirect("/staff/alerts?done=created", status=303)


def _as_values(rule: dict) -> dict[str, str]:
    return {"name": rule.get("Name") or "", "metric": rule.get("Metric") or "", "channel": rule.get("Channel") or "",
            "tenant": rule.get("TenantId") or "", "threshold": f"{rule.get('Threshold', 0):g}",
            "window": str(rule.get("WindowMinutes") or 60)}


async def edit_page(request: Request, rule_id: str, status: int = 200, **context) -> HTTPResponse:
    listed = await _rules(request)
    if not listed.ok:
        raise upstream.Unavailable()
    rule = next((row for row in listed.get("Alerts", []) if row.get("Id") == rule_id), None)
    if rule is None:
        raise gate.PageNotFound()
    context.setdefault("values", _as_values(rule))
    return render(request, "staff/alert.html", status, title=f"Edit {rule['Name']}", section="alerts", rule=rule,
                  metrics=METRICS, channels=CHANNELS, **context)


@bp.get("/staff/alerts/<rule_id:id>")
async def edit(request: Request, rule_id: str) -> HTTPResponse:
    await gate.require_staff(request)
    return await edit_page(request, rule_id)


@bp.post("/staff/alerts/<rule_id:id>")
async def save(request: Request, rule_id: str) -> HTTPResponse:
    await gate.require_staff(request)
    body, values, errors = _rule(request)
    if errors:
        return await edit_page(request, rule_id, 400, errors=errors, values=values)
    answer = await upstream.call(request, "PUT", f"/api/admin/platform-alerts/{rule_id}", json=body)
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await edit_page(request, rule_id, answer.status, errors=_refused(answer), values=values)
    return redirect("/staff/alerts?done=saved", status=303)


@bp.post("/staff/alerts/<rule_id:id>/remove")
async def remove(request: Request, rule_id: str) -> HTTPResponse:
    return await removal.remove(request, f"/api/admin/platform-alerts/{rule_id}", page=page,
                                failed="The rule could not be removed", done="/staff/alerts?done=removed")
