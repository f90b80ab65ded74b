"""Editing a contact: its e-mail, phone, name, external id and attributes, through the CRM's
``PATCH /v1/contatos/{id}``. Only what the person changed is sent (the CRM touches only the fields
it is given), so a field left alone is never rewritten from a stale page. An emptied field is sent
as null (the CRM removes it; the last identifier cannot go and it says so); an attribute whose value
is emptied is removed. The CRM's refusals are shown beside the field they name, every value kept.

Attributes are rows of a name and a value; "Add an attribute row" posts the form back with one more
row (no script needed). Values are text; a value that was a number or true/false stays one when the
new text still reads as one, so an edit does not turn ``42`` into ``"42"``."""

from __future__ import annotations

import json
import re
from typing import Any

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.contact import crm
from app.console.templating import render

bp = Blueprint("console_contact_edit")
FIELDS = {"email": "email", "phone": "telefone", "name": "nome", "external_id": "id_externo"}
WIRE = {wire: name for name, wire in FIELDS.items()}
# The CRM's reasons (details) in the console's words; another reason is shown as the CRM gives it.
WORDS = {"not a valid e-mail address": "Enter a valid e-mail address, like name@example.com",
         "not an E.164 number": "Enter the phone with its country code, like +55 11 91234 5678",
         "one of email, telefone, id_externo is required":
             "A contact keeps at least one of e-mail, phone or external id: fill one in"}
LONGEST = re.compile(r"string should have at most (\d+) characters?")
MAX_ROWS = 100  # the CRM's cap on a contact's attributes
PUNCTUATION = re.compile(r"[\s.\-()]")  # what the CRM drops from a phone before reading it


def shown(value: Any) -> str:
    """An attribute's value as the form shows it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def typed(text: str, before: Any) -> Any:
    """The text typed, kept a number or a boolean when the value was one and still reads as one."""
    if isinstance(before, bool) and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if isinstance(before, (int, float)) and not isinstance(before, bool):
        try:
            number = json.loads(text)
        except ValueError:
            return text
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            return number
    return text


def same(name: str, typed_in: str, stored: str) -> bool:
    """Whether a field still says what the CRM stores, as the CRM would normalize it (an e-mail's
    case, a phone's spaces and dashes): such a field is not sent."""
    if name == "email":
        return typed_in.lower() == stored.lower()
    if name == "phone":
        return PUNCTUATION.sub("", typed_in) == stored
    return typed_in == stored


def current_values(contact: dict) -> tuple[dict[str, str], list[dict[str, str]]]:
    values = {name: contact.get(wire) or "" for name, wire in FIELDS.items()}
    rows = [{"name": key, "value": shown(value), "was": key} for key, value in sorted((contact.get("atributos") or {}).items())]
    return values, rows + [{"name": "", "value": "", "was": ""}]


def submitted(request: Request) -> tuple[dict[str, str], list[dict[str, str]]]:
    form = request.form or {}
    values = {name: (form.get(name) or "").strip() for name in FIELDS}
    raw = form.get("rows") or "0"
    count = min(int(raw), MAX_ROWS + 1) if raw.isdigit() and len(raw) < 4 else 0
    rows = [{"name": (form.get(f"attr-name-{i}") or "").strip(), "value": form.get(f"attr-value-{i}") or "",
             "was": (form.get(f"attr-was-{i}") or "").strip()} for i in range(count)]
    return values, rows


def changes_of(contact: dict, values: dict[str, str], rows: list[dict[str, str]]) -> tuple[dict, dict[str, str]]:
    """(the PATCH body: only what differs from the contact, the form's own refusals by field)."""
    body: dict[str, Any] = {}
    problems: dict[str, str] = {}
    for name, wire in FIELDS.items():
        if same(name, values[name], contact.get(wire) or ""):
            continue
        body[wire] = values[name] or None
    before = contact.get("atributos") or {}
    wanted: dict[str, Any] = {}
    for i, row in enumerate(rows):
        if not row["name"]:
            if row["value"].strip():
                problems[f"attr-name-{i}"] = "Enter the attribute's name"
        elif len(row["name"]) > 64:
            problems[f"attr-name-{i}"] = "The name must be 64 characters or less"
        elif row["name"] in wanted:
            problems[f"attr-name-{i}"] = f"“{row['name']}” is in a row above: give each attribute once"
        elif row["value"] != "":  # an emptied value removes the attribute
            wanted[row["name"]] = typed(row["value"], before.get(row["was"] or row["name"]))
    attributes: dict[str, Any] = {key: None for key in before if key not in wanted}
    attributes.update({key: value for key, value in wanted.items()
                       if key not in before or type(before[key]) is not type(value) or before[key] != value})
    if attributes:
        body["atributos"] = attributes
    return body, problems


def in_words(reason: str) -> str:
    longest = LONGEST.fullmatch(reason)
    if longest:
        return f"Use at most {longest.group(1)} characters"
    return WORDS.get(reason, reason[:1].upper() + reason[1:])


def refusals(answer: upstream.Answer, body: dict) -> dict[str, str]:
    """The CRM's refusal beside the field it names (``details`` by wire name)."""
    found: dict[str, str] = {}
    for key, reason in answer.details.items():
        wire = key.split(".")[0]
        if wire in WIRE:
            found[WIRE[wire]] = in_words(str(reason))
        elif wire == "atributos":
            found["attributes"] = in_words(str(reason))
        elif wire == "contato":
            # The clash names no field: it is beside the one identifier that changed, when one did.
            changed = [WIRE[w] for w in ("email", "telefone", "id_externo") if w in body]
            found[changed[0] if len(changed) == 1 else "_"] = answer.message or str(reason)
    if not found:
        found["_"] = answer.message or "Herald could not save the contact. Try again."
    return found


async def _page(request: Request, account: dict, contact: dict, values: dict, rows: list, status: int = 200,
                **context) -> HTTPResponse:
    return render(request, "contact/edit.html", status,
                  title=f"Edit {contact.get('email') or contact.get('telefone') or contact.get('id_externo') or 'contact'}",
                  contact=contact, values=values, rows=rows, admin=crm.can_edit(account),
                  errors=context.pop("errors", {}), **context)


async def _contact(request: Request, account_id: str, contact_id: str) -> dict:
    found = await crm.call(request, account_id, "GET", f"/v1/contatos/{contact_id}")
    if not found.ok:
        raise upstream.Unavailable()
    return found.get("contato")


@bp.get("/a/<account_id:id>/contacts/<contact_id:id>/edit")
async def edit(request: Request, account_id: str, contact_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    contact = await _contact(request, account_id, contact_id)
    values, rows = current_values(contact)
    return await _page(request, account, contact, values, rows)


@bp.post("/a/<account_id:id>/contacts/<contact_id:id>/edit")
async def save(request: Request, account_id: str, contact_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    contact = await _contact(request, account_id, contact_id)
    values, rows = submitted(request)
    if (request.form or {}).get("action") == "add-row":
        if len(rows) >= MAX_ROWS:
            return await _page(request, account, contact, values, rows, 400,
                               errors={f"attr-name-{len(rows) - 1}": f"A contact has at most {MAX_ROWS} attributes"})
        rows.append({"name": "", "value": "", "was": ""})
        return await _page(request, account, contact, values, rows, focus=f"attr-name-{len(rows) - 1}")
    body, problems = changes_of(contact, values, rows)
    if problems:
        return await _page(request, account, contact, values, rows, 400, errors=problems)
    if not body:
        return redirect(f"/a/{account_id}/contacts/{contact_id}?changed=nothing", status=303)
    answer = await crm.call(request, account_id, "PATCH", f"/v1/contatos/{contact_id}", json=body)
    if answer.status == 403:
        return await _page(request, account, contact, values, rows, 403,
                           errors={"_": "Only owners and admins edit contacts."})
    if not answer.ok:
        return await _page(request, account, contact, values, rows, answer.status if answer.status < 500 else 502,
                           errors=refusals(answer, body))
    return redirect(f"/a/{account_id}/contacts/{contact_id}?changed=details", status=303)
