"""The form editor's fields as posted (rows ``field-<n>-name``, ``-label``, ``-type``, ``-required``,
``-options``) to the pages system's body (``Fields``, ``Consent``, ``Destination``...) and back, and
the pages system's refusals (``Details`` keys like ``Fields.2.Name``) onto the rows they name.

Without script the editor shows the form's fields and empty rows; "Add a field row" posts the form
back with one more row and saves nothing. A row with neither name nor label is left out."""

from __future__ import annotations

import re

from sanic import Request

from app.console import forms

TYPES = {"text": "Text", "email": "E-mail", "tel": "Phone", "number": "Number", "textarea": "Long text",
         "select": "Choice (select)", "checkbox": "Checkbox", "date": "Date", "hidden": "Hidden"}
SPARE_ROWS = 2
MAX_ROWS = 50  # the pages system's bound (app/pages/form/schemas.py)
DETAIL = re.compile(r"Fields\.(\d+)\.(\w+)")
TOP = {"Name": "name", "SuccessMessage": "success", "RedirectUrl": "redirect", "Consent": "consent",
       "Destination.CrmList": "list", "Destination.NotifyEmail": "notify", "Fields": "field-0-name"}


def rows_of(form: dict | None) -> list[dict]:
    """A saved form's fields as editor rows."""
    return [{"name": item.get("Name", ""), "label": item.get("Label", ""), "type": item.get("Type", "text"),
             "required": bool(item.get("Required")), "options": ", ".join(item.get("Options") or []),
             "extra": {key: item[key] for key in ("MaxLength", "Pattern") if item.get(key) is not None}}
            for item in (form or {}).get("Fields") or []]


def values_of(form: dict | None) -> dict:
    """A saved form as the editor's values (a new one: an e-mail field and a required consent)."""
    if form is None:
        return {"name": "", "rows": [{"name": "email", "label": "E-mail", "type": "email", "required": True,
                                      "options": "", "extra": {}}],
                "consent": "", "consent_required": True, "list": "", "notify": "", "success": "", "redirect": ""}
    consent = form.get("Consent") or {}
    destination = form.get("Destination") or {}
    return {"name": form.get("Name", ""), "rows": rows_of(form), "consent": consent.get("Text", ""),
            "consent_required": bool(consent.get("Required", True)), "list": destination.get("CrmList") or "",
            "notify": destination.get("NotifyEmail") or "", "success": form.get("SuccessMessage", ""),
            "redirect": form.get("RedirectUrl") or ""}


def posted(request: Request, saved: dict | None = None) -> dict:
    """The editor's values as posted. A row keeps what the editor does not show (``MaxLength``,
    ``Pattern``) from the saved field of the same name, so an edit never drops them."""
    kept = {row["name"]: row["extra"] for row in rows_of(saved)}
    count = min(int(forms.value(request, "rows") or 0) if forms.value(request, "rows").isdigit() else 0, MAX_ROWS)
    rows = []
    for n in range(count):
        name, label = forms.value(request, f"field-{n}-name"), forms.value(request, f"field-{n}-label")
        kind = forms.value(request, f"field-{n}-type")
        rows.append({"name": name, "label": label, "type": kind if kind in TYPES else "text",
                     "required": forms.value(request, f"field-{n}-required") == "1",
                     "options": forms.value(request, f"field-{n}-options"), "extra": kept.get(name, {})})
    return {"name": forms.value(request, "name"), "rows": rows, "consent": forms.value(request, "consent"),
            "consent_required": forms.value(request, "consent_required") == "1",
            "list": forms.value(request, "list"), "notify": forms.value(request, "notify"),
            "success": forms.value(request, "success"), "redirect": forms.value(request, "redirect")}


def shown_rows(values: dict, more: bool = False) -> list[dict]:
    """The rows to show: the form's, then empty ones to fill in."""
    filled = [row for row in values["rows"] if row["name"] or row["label"]]
    spare = SPARE_ROWS + (1 if more else 0) if len(filled) < MAX_ROWS else 0
    blank = {"name": "", "label": "", "type": "text", "required": False, "options": "", "extra": {}}
    return (filled + [dict(blank) for _ in range(spare)])[:MAX_ROWS]


def body_of(values: dict) -> tuple[dict, list[int]]:
    """The pages system's body, and which editor row each of its ``Fields`` came from."""
    fields, origin = [], []
    for n, row in enumerate(values["rows"]):
        if not (row["name"] or row["label"]):
            continue
        field = {"Name": row["name"], "Label": row["label"] or row["name"], "Type": row["type"],
                 "Required": row["required"], **row["extra"]}
        if row["type"] == "select":
            field["Options"] = [item.strip() for item in row["options"].split(",") if item.strip()]
        fields.append(field)
        origin.append(n)
    destination = {key: value for key, value in (("CrmList", values["list"]), ("NotifyEmail", values["notify"]))
                   if value}
    body = {"Name": values["name"], "Fields": fields, "Destination": destination,
            "SuccessMessage": values["success"], "RedirectUrl": values["redirect"] or None,
            "Consent": {"Text": values["consent"], "Required": values["consent_required"]} if values["consent"] else None}
    return body, origin


def errors_of(details: dict, origin: list[int]) -> dict[str, str]:
    """``Details`` of a refusal on the editor's controls: ``Fields.1.Pattern`` on the row it came from."""
    errors: dict[str, str] = {}
    for key, problem in details.items():
        text = str(problem).strip()
        text = text[:1].upper() + text[1:]
        found = DETAIL.match(key)
        if found:
            index, part = int(found.group(1)), found.group(2)
            row = origin[index] if index < len(origin) else 0
            control = {"Label": "label", "Type": "type", "Options": "options"}.get(part, "name")
            errors.setdefault(f"field-{row}-{control}", f"Field {row + 1}: {text}")
        else:
            target = TOP.get(key) or next((name for prefix, name in TOP.items() if key.startswith(prefix + ".")), "_")
            errors.setdefault(target, text)
    return errors
