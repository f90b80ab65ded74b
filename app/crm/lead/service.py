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

``list_slug`` (a form's ``Destination.CrmList``) makes the contact a member of the account's list of
that slug, in the same transaction (journeys that start on the list and destinations listening for
``list.member_added`` follow, as for any member added). The account having no such list (deleted or
renamed since the form was saved) does not lose the lead: the contact is made, the event keeps
``list_missing`` and the answer says why in ``list_error``, which the runtime records on the
submission.
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
from app.crm.list import service as lists
from models.crm import Contact, ContactEvent
from models.crm.consent import CHANNELS
from models.crm.event import FORM_SUBMISSION, LEAD


@dataclass
class LeadOutcome:
    contact_id: str
    created: bool
    duplicate: bool
    list_id: str | None = None  # the list the contact is a member of now (list_slug given)
    list_error: str | None = None  # why it is not (no list of that slug in the account)


def dedupe_key(body: LeadIn) -> str:
    return f"{body.source}:{body.submission_id}"


async def ingest(conn: BaseDBAsyncClient, tenant: str, body: LeadIn) -> LeadOutcome:
    key = dedupe_key(body)
    earlier = await ContactEvent.get_or_none(tenant=tenant, dedupe_key=key, using_db=conn)
    if earlier is not None:
        contact = await Contact.get(id=earlier.contact_id, using_db=conn)
        return LeadOutcome(contact.public_id, False, True, earlier.properties.get("list_id"),
                           _missing(earlier.properties.get("list_missing")))
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
    list_id = await join_list(conn, tenant, contact, body.list_slug)
    list_missing = body.list_slug if body.list_slug and list_id is None else None
    name = FORM_SUBMISSION if body.source == "form" else LEAD
    wording = body.consent_text if body.consent is not None else None  # no answer, no record
    properties = {key: value for key, value in (("submission_id", body.submission_id), ("form_id", body.form_id),
                                                ("page_id", body.page_id), ("consent", body.consent),
                                                ("consent_text", wording),
                                                ("invalid_fields", ",".join(invalid) or None),
                                                ("list_id", list_id), ("list_missing", list_missing))
                  if value is not None}
    trigger = ("formulario", body.form_id) if body.source == "form" else ("lead", None)
    event = await events.record(conn, tenant, contact, name, body.source, properties, occurred, dedupe_key=key,
                                trigger=trigger)
    return LeadOutcome(contact.public_id, created, event is None, list_id, _missing(list_missing))


async def join_list(conn: BaseDBAsyncClient, tenant: str, contact: Contact, slug: str | None) -> str | None:
    """The id of the account's list ``slug`` once the contact is a member of it (idempotent); None
    without a slug or when the account has no such list."""
    if not slug:
        return None
    found = await lists.by_slug(conn, tenant, slug)
    if found is None:
        return None
    await lists.add_members(conn, tenant, found.public_id, [contact.public_id])
    return found.public_id


def _missing(slug: object) -> str | None:
    return f"the account has no list {slug!r}" if isinstance(slug, str) and slug else None
