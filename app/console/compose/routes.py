"""Sending one message from the console: e-mail (from an address on a verified domain), SMS, push
or WhatsApp, as free text or from one of the account's templates, through the platform's composer
(``POST /api/messages/send``, the one accept path of ``/v1``). Nothing the person typed is lost:
the form comes back with every value and the platform's refusals beside the fields they name;
a send answers the messages, each linked to its page, which follows it to its final state.
"""

from __future__ import annotations

import asyncio
import secrets

from sanic import Blueprint, HTTPResponse, Request

from app.console import forms, gate, upstream
from app.console.message import words
from app.console.templating import render

bp = Blueprint("console_compose")

FIELDS = ("channel", "recipients", "from", "subject", "text", "html", "template", "variables", "idempotency")
# The platform's Details keys (Recipients.0, Variables.name...) and the form fields they sit beside.
FIELD_OF = {"Channel": "channel", "Recipients": "recipients", "From": "from", "Source": "from", "Subject": "subject", "Text": "text",
            "Html": "html", "Template": "template", "Variables": "variables", "IdempotencyKey": "_"}
MAX_RECIPIENTS = 50
MAX_VARIABLES = 50


async def _templates(request: Request, account_id: str) -> list[dict] | None:
    answer = await upstream.call(request, "GET", "/api/templates", tenant=account_id)
    return answer.get("Templates", []) if answer.ok else None


async def _verified_domains(request: Request, account_id: str) -> list[str] | None:
    """The domains an e-mail may be sent from (the From hint names them)."""
    answer = await upstream.call(request, "GET", "/api/domains", tenant=account_id)
    rows = answer.get("Domains") if answer.ok else None
    return None if rows is None else [row["Name"] for row in rows if isinstance(row, dict) and row.get("Verified")]


async def _page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    context.setdefault("values", {"channel": request.args.get("channel") or "email",
                                  "idempotency": secrets.token_urlsafe(18)})
    templates, domains = await asyncio.gather(_templates(request, account["Id"]),
                                              _verified_domains(request, account["Id"]))
    return render(request, "compose/compose.html", status, title="Compose", words=words, templates=templates,
                  domains=domains, admin=gate.is_admin(account), **context)


@bp.get("/a/<account_id:id>/compose", ctx_query=("channel",))
async def compose(request: Request, account_id: str) -> HTTPResponse:
    return await _page(request, await gate.require_account(request, account_id))


def parse_variables(text: str) -> tuple[dict[str, str], str | None]:
    """``name: value`` lines (or ``name=value``) as the template's variables."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition(":") if ":" in line else line.partition("=")
        if not sep or not name.strip():
            return found, f"Write each variable as name: value (the line “{line.strip()[:40]}” is not)"
        found[name.strip()] = value.strip()
    if len(found) > MAX_VARIABLES:
        return found, f"At most {MAX_VARIABLES} variables"
    return found, None


def body_of(values: dict[str, str]) -> tuple[dict, dict[str, str]]:
    """The composer's body from the form, or the errors the console finds before asking."""
    errors: dict[str, str] = {}
    channel = values["channel"] if values["channel"] in words.CHANNELS else ""
    if not channel:
        errors["channel"] = "Choose a channel"
    recipients = [part.strip() for part in values["recipients"].replace(",", "\n").splitlines() if part.strip()]
    if not recipients:
        errors["recipients"] = "Enter at least one recipient"
    elif len(recipients) > MAX_RECIPIENTS:
        errors["recipients"] = f"Enter {MAX_RECIPIENTS} recipients or fewer"
    body: dict = {"Channel": channel, "Recipients": recipients, "IdempotencyKey": values["idempotency"][:200] or None}
    if values["template"]:
        variables, problem = parse_variables(values["variables"])
        if problem:
            errors["variables"] = problem
        body.update(Template=values["template"], Variables=variables)
    else:
        for field, key in (("subject", "Subject"), ("text", "Text"), ("html", "Html")):
            if values[field] and (field != "html" or channel == "email") and (field != "subject" or channel in ("email", "push")):
                body[key] = values[field]
    if values["from"] and channel in ("email", "sms"):
        body["From"] = values["from"]
    return {key: value for key, value in body.items() if value is not None}, errors


def field_errors(answer: upstream.Answer) -> dict[str, str]:
    """The platform's refusal beside the fields its Details name (else above the form)."""
    if answer.code in ("RemetenteNaoVerificado", "VerificationUnavailable"):
        return {"from": answer.message or "The sender's domain is not verified"}
    found: dict[str, str] = {}
    for key, reason in answer.details.items():
        field = FIELD_OF.get(str(key).split(".")[0], "_")
        label = str(key) if "." in str(key) else ""
        found.setdefault(field, f"{label}: {reason}" if label else str(reason).capitalize())
    if not found:
        found["_"] = answer.message or "Herald did not send it"
    return found


@bp.post("/a/<account_id:id>/compose")
async def send(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values = forms.values(request, *FIELDS)
    values["html"], values["text"] = forms.value(request, "html", strip=False), forms.value(request, "text", strip=False)
    body, errors = body_of(values)
    if errors:
        return await _page(request, account, 400, errors=errors, values=values)
    answer = await upstream.call(request, "POST", "/api/messages/send", json=body, tenant=account["Id"])
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.status == 403:
        return await _page(request, account, 403, values=values,
                           errors={"_": answer.message if answer.code != "PermissionDenied"
                                   else "Only owners and admins of this account send from the console."})
    if answer.status == 429:
        return await _page(request, account, 429, values=values,
                           errors={"_": (answer.message or "Too many messages") + ". " + forms.retry_phrase(answer)})
    if not answer.ok:
        return await _page(request, account, answer.status if answer.status < 500 else 502, values=values,
                           errors=field_errors(answer))
    return await _page(request, account, 202, sent=answer.get("Messages") or [],
                       reused=bool(answer.get("ReusedIdempotency")),
                       values={"channel": values["channel"], "idempotency": secrets.token_urlsafe(18)})
