"""The CRM's retention reaching the runtime: an anonymized contact's form submissions and leads
lose what the person typed.

A submission (``form_submissions``, source ``form`` or ``lead``) is erased when it is older than
the account's policy (``older_than_days``: whatever contact it made is older still, so anonymized
too; this also reaches submissions that never became a contact), or when it is **tied to** one of
the contacts anonymized now, that is when
- the CRM made it that contact (``contact_id``, recorded when it was forwarded), or
- its e-mail, trimmed and lower-cased, is the contact's e-mail, or
- its phone, without spaces, dots, dashes and parentheses (a leading ``00`` read as ``+``), is the
  contact's E.164 phone. A phone typed without its country code matches only through ``contact_id``.
The e-mail and phone also find submissions the CRM never made into this contact (not forwarded
yet, refused, or forwarded after an earlier contact of that address was anonymized).

A tied submission keeps its row (the counts of forms, pages and A/B tests stay) and its consent
answer with the wording shown; its e-mail, phone, name, external id and attributes are removed for
good (``data`` sealed again without them) and ``anonymized_at`` is stamped. A submission not yet
forwarded then has nothing left to make a contact from: the CRM refuses it (no identifier), and
that is recorded on the row.

Replays are not touched: nothing ties a recorded session to a person (the recorder masks every
input and keeps no address, and a submission does not record the visitor's replay session).

The account's submissions are sealed, so they are opened in batches of SCAN_BATCH (keyset by id,
only those not anonymized yet): the cost is one pass over the account's submissions per call (one
call per anonymized batch of up to 1,000 contacts). A repeat finds nothing more: the call is
idempotent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from tortoise.backends.base.client import BaseDBAsyncClient

from app.runtime.retention.schemas import ErasedContact
from models.runtime.lead import seal, unseal

SCAN_BATCH = 500
PHONE_PUNCTUATION = re.compile(r"[\s.\-()]")
# What a tied submission keeps: the consent answer and the wording it answered (no one is named).
KEPT = ("consent", "consent_text")


@dataclass
class Erased:
    submissions: int = 0
    leads: int = 0


def email_key(value: Any) -> str | None:
    return value.strip().lower() or None if isinstance(value, str) else None


def phone_key(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    digits = PHONE_PUNCTUATION.sub("", value.strip())
    return "+" + digits[2:] if digits.startswith("00") else digits or None


class Ties:
    """The contacts of one erasure, as a submission's fields are compared with them."""

    def __init__(self, contacts: Iterable[ErasedContact]):
        contacts = list(contacts)
        self.ids = {contact.id for contact in contacts}
        self.emails = {key for key in (email_key(contact.email) for contact in contacts) if key}
        self.phones = {key for key in (phone_key(contact.phone) for contact in contacts) if key}

    def tie(self, contact_id: str | None, values: dict[str, Any]) -> bool:
        return (contact_id in self.ids or email_key(values.get("email")) in self.emails
                or phone_key(values.get("phone")) in self.phones)


def anonymous(values: dict[str, Any]) -> dict[str, Any]:
    return {"email": None, "phone": None, "name": None, "external_id": None, "attributes": {},
            **{key: values.get(key) for key in KEPT}}


async def erase(conn: BaseDBAsyncClient, tenant: str, contacts: Iterable[ErasedContact],
                older_than_days: int | None = None) -> Erased:
    """Anonymize the account's submissions and leads tied to ``contacts`` or older than
    ``older_than_days``, in the caller's transaction. With no contacts only the old rows are read."""
    ties, erased, after = Ties(contacts), Erased(), 0
    while True:
        rows = await conn.execute_query_dict(
            "SELECT id, source, contact_id, data, "
            "coalesce(created_at < now() - make_interval(days => $4::int), false) AS aged "
            "FROM form_submissions WHERE tenant = $1 AND anonymized_at IS NULL AND id > $2 "
            "AND ($5 OR created_at < now() - make_interval(days => $4::int)) ORDER BY id LIMIT $3",
            [tenant, after, SCAN_BATCH, older_than_days, bool(ties.ids)])
        tied: list[tuple[int, str]] = []
        for row in rows:
            values = unseal(row["data"])
            if row["aged"] or ties.tie(row["contact_id"], values):
                tied.append((row["id"], seal(anonymous(values))))
                if row["source"] == "lead":
                    erased.leads += 1
                else:
                    erased.submissions += 1
        if tied:
            await conn.execute_query(
                "UPDATE form_submissions f SET data = u.d, anonymized_at = now() "
                "FROM unnest($2::bigint[], $3::text[]) AS u(id, d) WHERE f.id = u.id AND f.tenant = $1",
                [tenant, [pk for pk, _ in tied], [data for _, data in tied]])
        if len(rows) < SCAN_BATCH:
            return erased
        after = rows[-1]["id"]
