"""A lead or form submission from the runtime: the contact upserted by its natural identity, one
event (``form_submission`` or ``lead``) per submission id, and the journeys it starts.

Idempotent by ``submission_id``: a repeat answers the contact of the first record with
``duplicate`` true and changes nothing (the event's dedupe key is ``<source>:<submission_id>``,
unique per account). ``consent`` false opts the contact out of every channel (and so reaches the
platform as suppressions, app/crm/consent); true or null leaves consent as it is (a form cannot undo
an opt-out the person made elsewhere). An invalid e-mail or phone is left out (and named in the
event's ``invalid_fields``) when another identifier is valid: a typo in a form does not lose the lead.
The wording of a form's consent (``consent_text``) is kept on the event next to the answer: the
record of what the person agreed to, or declined.
"""

from __future__ import annotations

from dataclasses import dataclass

from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.consent.service import set_consent
from app.crm.contact.service import normalize_email, normalize_phone
from app.crm.errors import InvalidContact
from app.crm.event import service as events
from app.crm.event.schemas import moment
from app.crm.lead.schemas import LeadIn
from models.crm import Contact, ContactEvent
from models.crm.consent import CHANNELS
from models.crm.event import FORM_SUBMISSION, LEAD


@dataclass
class LeadOutcome:
    contact_id: str
    created: bool
    duplicate: bool


def dedupe_key(body: LeadIn) -> str:
    return f"{body.source}:{body.submission_id}"


async def ingest(conn: BaseDBAsyncClient, tenant: str, body: LeadIn) -> LeadOutcome:
    key = dedupe_key(body)
    earlier = await ContactEvent.get_or_none(tenant=tenant, dedupe_key=key, using_db=conn)
    if earlier is not None:
        contact = await Contact.get(id=earlier.contact_id, using_db=conn)
        return LeadOutcome(contact.public_id, False, True)
    identity = {name: value for name, value in (("email", body.email), ("telefone", body.phone),
                                                 ("id_externo", body.external_id)) if value}
    if not identity:
        raise InvalidContact("A lead needs at least one of email, phone or external_id.",
                             details={"email": "one of email, phone, external_id is required"})
    # What a person typed in a form: an invalid e-mail or phone is left out (and noted on the event)
    # when another identifier is valid, so the lead is not lost; with none valid it is the 422.
    invalid: list[str] = []
    for name, check, wire in (("email", normalize_email, "email"), ("telefone", normalize_phone, "phone")):
        if name in identity:
            try:
                check(identity[name])
            except InvalidContact:
                invalid.append(wire)
    if invalid and len(invalid) == len(identity):
        raise InvalidContact(f"The lead's {' and '.join(invalid)} {'is' if len(invalid) == 1 else 'are'} not valid "
                             "and it has no other identifier.", details={wire: "not valid" for wire in invalid})
    identity = {name: value for name, value in identity.items()
                if not (name == "email" and "email" in invalid) and not (name == "telefone" and "phone" in invalid)}
    occurred = moment("occurred_at", body.occurred_at)
    extra = {**({"nome": body.name} if body.name else {}),
             **({"atributos": body.attributes} if body.attributes else {})}
    contact, created = await events.resolve_contact(conn, tenant, None, identity, extra)
    if body.consent is False:
        await set_consent(conn, tenant, contact.public_id, False, CHANNELS)
    name = FORM_SUBMISSION if body.source == "form" else LEAD
    wording = body.consent_text if body.consent is not None else None  # no answer, no record
    properties = {key: value for key, value in (("submission_id", body.submission_id), ("form_id", body.form_id),
                                                ("page_id", body.page_id), ("consent", body.consent),
                                                ("consent_text", wording),
                                                ("invalid_fields", ",".join(invalid) or None))
                  if value is not None}
    trigger = ("formulario", body.form_id) if body.source == "form" else ("lead", None)
    event = await events.record(conn, tenant, contact, name, body.source, properties, occurred, dedupe_key=key,
                                trigger=trigger)
    return LeadOutcome(contact.public_id, created, event is None)
