"""Form rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from models.pages import Form

FORM_SHAPE = shape(
    Id=described(STRING, "The form's id (`frm_...`)."),
    Name=described(STRING, "Its name."),
    Fields=described({"type": "array", "items": {"type": "object"}},
                     "Its fields, in order: `Name`, `Label`, `Type`, `Required`, `MaxLength`, `Pattern`, `Options`."),
    Consent=described({"type": ["object", "null"]}, "Its consent checkbox (`Text`, `Required`), or null."),
    Destination=described({"type": "object"}, "Where a submission goes besides the CRM: `CrmList` (a list's slug) "
                                               "and `NotifyEmail`, each when set."),
    SuccessMessage=described(STRING, "The message shown after a submission."),
    RedirectUrl=described(NULLABLE_STRING, "Where the visitor is sent after a submission instead, or null."),
    CreatedAt=described(TIMESTAMP, "When it was created (RFC 3339)."))
FORM = reply_of(Formulario=described(FORM_SHAPE, "The form."))
FORMS = reply_of(Formularios=described({"type": "array", "items": FORM_SHAPE}, "The forms, newest first."),
                 NextCursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
                 HasMore=described({"type": "boolean"}, "Whether there is a next page."))
INTERNAL_FORM = reply_of(Formulario=described(dict(
    FORM_SHAPE, required=FORM_SHAPE["required"] + ["TenantId", "Dominios"],
    properties={**FORM_SHAPE["properties"], "TenantId": described(STRING, "The account the form belongs to."),
                "Dominios": described({"type": "array", "items": STRING},
                                      "The account's verified custom domains (the origins its form route accepts).")}),
    "The form, with its account."))


def form_view(form: Form) -> dict:
    return {"Id": form.public_id, "Name": form.name, "Fields": form.fields_spec, "Consent": form.consent,
            "Destination": {key: value for key, value in form.destination.items() if key != "RedirectUrl"},
            "SuccessMessage": form.success_message, "RedirectUrl": form.destination.get("RedirectUrl"),
            "CreatedAt": iso(form.created_at)}


def internal_form_view(form: Form, domains: list[str]) -> dict:
    """The form for the runtime: its account, and that account's verified custom domains (the
    origins its cross-origin form route accepts)."""
    return {**form_view(form), "TenantId": form.tenant_id, "Dominios": domains}
