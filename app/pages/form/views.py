"""Form rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from models.pages import Form

FORM_SHAPE = shape(Id=STRING, Name=STRING, Fields={"type": "array", "items": {"type": "object"}},
                   Consent={"type": ["object", "null"]}, Destination={"type": "object"}, SuccessMessage=STRING,
                   RedirectUrl=NULLABLE_STRING, CreatedAt=TIMESTAMP)
FORM = reply_of(Formulario=FORM_SHAPE)
FORMS = reply_of(Formularios={"type": "array", "items": FORM_SHAPE}, NextCursor=NULLABLE_STRING,
                 HasMore={"type": "boolean"})
INTERNAL_FORM = reply_of(Formulario=dict(FORM_SHAPE, required=FORM_SHAPE["required"] + ["TenantId", "Dominios"],
                                         properties={**FORM_SHAPE["properties"], "TenantId": STRING,
                                                     "Dominios": {"type": "array", "items": STRING}}))


def form_view(form: Form) -> dict:
    return {"Id": form.public_id, "Name": form.name, "Fields": form.fields_spec, "Consent": form.consent,
            "Destination": {key: value for key, value in form.destination.items() if key != "RedirectUrl"},
            "SuccessMessage": form.success_message, "RedirectUrl": form.destination.get("RedirectUrl"),
            "CreatedAt": iso(form.created_at)}


def internal_form_view(form: Form, domains: list[str]) -> dict:
    """The form for the runtime: its account, and that account's verified custom domains (the
    origins its cross-origin form route accepts)."""
    return {**form_view(form), "TenantId": form.tenant_id, "Dominios": domains}
