"""An account's own providers, per channel: what is set (settings shown, secrets only as set or not
set: they are write-only), setting one from the platform's catalog (its fields, which are
required, the choices), removing one (the channel goes back to the platform's default).
``GET /api/providers`` (with the catalog), ``GET/PUT/DELETE /api/providers/{channel}/{key}``, under
``X-Service-Tenant`` (writes need the admin role)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.templating import render

bp = Blueprint("console_provider")
CHANNELS = (("email", "E-mail"), ("sms", "SMS"), ("push", "Push"), ("whatsapp", "WhatsApp"))
NAMES = {"smtp": "SMTP server", "twilio": "Twilio", "fcm": "Firebase Cloud Messaging", "apns": "Apple Push (APNs)",
         "whatsapp_cloud": "WhatsApp Cloud API", "webpush": "Web Push"}
# What a field takes, in words (the platform's catalog gives the rules; these say them to a person).
HINTS = {"host": "Like smtp.example.com", "port": "25, 465, 587 or 2525", "timeout": "Seconds, 1 to 30",
         "pool_size": "Connections kept open, 1 to 8", "max_idle": "Seconds an idle connection is kept, 0 to 300",
         "base_url": "Leave empty for the provider's own address", "from": "The sender number, like +14155550100",
         "environment": "sandbox for development builds of the app", "service_account": "The key file's JSON",
         "private_key": "The .p8 key, PEM"}
# Multi-line secrets (a PEM key, a service account's JSON) are typed in a text area.
LONG_SECRETS = ("private_key", "service_account")


async def _providers(request: Request, account: dict) -> tuple[list[dict], list[dict]] | None:
    answer = await upstream.call(request, "GET", "/api/providers", tenant=account["Id"])
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return None
    return answer.get("Providers", []), answer.get("Catalog", [])


@bp.get("/a/<account_id:id>/providers")
async def providers(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    found = await _providers(request, account)
    configured, catalog = found if found else (None, [])
    by_channel = {channel: [row for row in configured or () if row["Channel"] == channel] for channel, _ in CHANNELS}
    return render(request, "provider/providers.html", title="Providers", channels=CHANNELS, names=NAMES,
                  configured=configured, by_channel=by_channel, catalog=catalog, admin=gate.is_admin(account))


def _entry(catalog: list[dict], channel: str, key: str) -> dict:
    for entry in catalog:
        if entry["Channel"] == channel and entry["Key"] == key:
            return entry
    raise gate.PageNotFound()


async def _form(request: Request, account: dict, channel: str, key: str, status: int = 200, values=None,
                **context) -> HTTPResponse:
    found = await _providers(request, account)
    if found is None:
        raise upstream.Unavailable()
    configured, catalog = found
    entry = _entry(catalog, channel, key)
    current = next((row for row in configured if row["Channel"] == channel and row["Key"] == key), None)
    if values is None:
        values = {name: str(value) for name, value in ((current or {}).get("Settings") or {}).items()}
    return render(request, "provider/provider.html", status, title=f"{NAMES.get(key, key)} for {channel}",
                  entry=entry, current=current, names=NAMES, values=values, long_secrets=LONG_SECRETS, hints=HINTS,
                  admin=gate.is_admin(account), **context)


@bp.get("/a/<account_id:id>/providers/<channel:slug>/<key:slug>")
async def provider(request: Request, account_id: str, channel: str, key: str) -> HTTPResponse:
    return await _form(request, await gate.require_account(request, account_id), channel, key)


def _typed(field: dict, text: str) -> tuple[object, str | None]:
    """A setting as the catalog types it (ports and numbers are numbers); a problem in words."""
    if field["Type"] in ("port", "number"):
        try:
            number = float(text)
        except ValueError:
            return None, f"Enter {field['Name'].replace('_', ' ')} as a number"
        return (int(number) if number.is_integer() else number), None
    return text, None


@bp.post("/a/<account_id:id>/providers/<channel:slug>/<key:slug>")
async def set_provider(request: Request, account_id: str, channel: str, key: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    found = await _providers(request, account)
    if found is None:
        raise upstream.Unavailable()
    entry = _entry(found[1], channel, key)
    form = request.form or {}
    values, settings, secrets, errors = {}, {}, {}, {}
    for field in entry["Settings"]:
        text = (form.get(f"setting-{field['Name']}") or "").strip()
        values[field["Name"]] = text
        if not text:
            if field["Required"]:
                errors[f"setting-{field['Name']}"] = f"Enter the {field['Name'].replace('_', ' ')}"
            continue
        settings[field["Name"]], problem = _typed(field, text)
        if problem:
            errors[f"setting-{field['Name']}"] = problem
    for field in entry["Secrets"]:
        text = form.get(f"secret-{field['Name']}") or ""
        if form.get(f"forget-{field['Name']}"):
            secrets[field["Name"]] = None
        elif text.strip():
            secrets[field["Name"]] = text.strip()
    if errors:
        return await _form(request, account, channel, key, 400, values=values, errors=errors)
    answer = await upstream.call(request, "PUT", f"/api/providers/{channel}/{key}", tenant=account_id,
                                 json={"Settings": settings, "Secrets": secrets})
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.status == 403:
        return await _form(request, account, channel, key, 403, values=values,
                           errors={"_": "Only owners and admins set providers."})
    if not answer.ok:
        # The platform names the field refused as "Settings.<name>" or "Secrets.<name>".
        section, _, named = next(iter(answer.details), "").partition(".")
        place = {"Settings": f"setting-{named}", "Secrets": f"secret-{named}"}.get(section, "_")
        return await _form(request, account, channel, key, answer.status, values=values,
                           errors={place: answer.message or "Check the settings"})
    return redirect(f"/a/{account_id}/providers", status=303)


@bp.post("/a/<account_id:id>/providers/<channel:slug>/<key:slug>/remove")
async def remove(request: Request, account_id: str, channel: str, key: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await upstream.call(request, "DELETE", f"/api/providers/{channel}/{key}", tenant=account_id)
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.status == 403:
        return await _form(request, account, channel, key, 403, errors={"_": "Only owners and admins remove providers."})
    if not answer.ok:
        raise upstream.Unavailable()
    return redirect(f"/a/{account_id}/providers", status=303)
