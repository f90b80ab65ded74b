"""The dashboard's contacts and lists, served by the CRM (docs/crm.md, "Through the dashboard").

The CRM owns contacts and lists; the platform keeps none of them. Each operation is one call to
the CRM's internal routes (``/internal/v1/tenants/{account}/...``, service credential) with the
account the gate proved, so an account can only ever name its own contacts and lists. This module
holds the rules of that hop:

- what the platform checks before calling (bulk and member counts, identifiers, query text);
- :func:`refusal`, the one place a 4xx of the CRM becomes the platform's error (400, 404, 409,
  413, 422 keep their status; the CRM's field names become the dashboard's);
- a CRM that does not answer, answers 5xx or an unexpected body is 502 ``UpstreamError``
  (app/http/services.py; the reason only in the log).

Nothing is written on the platform's side, so no call needs a compensation: a write either
happened in the CRM (one CRM transaction each) or did not.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

import pydantic

from app.http import errors
from app.http.bodies import validation_error
from app.http.services import ServiceClient, ServiceResponse
from app.platform.audience import views
from app.platform.audience.schemas import MAX_BULK, MAX_BULK_BODY_BYTES, MAX_MEMBERS, ContactCreate, ListUpsert

log = logging.getLogger("herald.dashboard")

LIST_ID = re.compile(r"lst_[0-9a-f]{1,36}")
MAX_QUERY_TEXT = 320
IDENTIFIERS = ("email", "phone", "external_id")
T = TypeVar("T")


@dataclass(frozen=True)
class Paging:
    cursor: str | None
    limit: int

    def params(self) -> dict[str, Any]:
        return {"limit": self.limit, **({"cursor": self.cursor} if self.cursor else {})}


def _base(tenant_id: str) -> str:
    return f"/internal/v1/tenants/{tenant_id}"


def query_text(name: str, value: str | None) -> str | None:
    """A free-text query parameter passed to the CRM: bounded, no control characters (422)."""
    if value is None or value == "":
        return None
    if len(value) > MAX_QUERY_TEXT or any(ord(char) < 32 or ord(char) == 127 for char in value):
        raise errors.Unprocessable(f"Query parameter {name!r} must be printable text of at most {MAX_QUERY_TEXT} "
                                   "characters.", details={name: "invalid"})
    return value


def list_id_of(value: str) -> str:
    """A list id names a list only when shaped ``lst_<hex>``; anything else is the 404 of a missing one."""
    if not LIST_ID.fullmatch(value):
        raise errors.NotFound("No list with this id.")
    return value


def said(message: str | None, details: dict[str, Any]) -> str | None:
    """The CRM's messages name its own fields: when it gave Details, say the first with the
    dashboard's name of the field."""
    if details:
        field, reason = next(iter(details.items()))
        if isinstance(reason, str):
            return f"Field {field!r}: {reason}."
    return message


def refusal(answer: ServiceResponse, collection: str = "Contacts") -> errors.HttpError:
    """The platform's error for a 4xx answer of the CRM (the one mapping of this hop)."""
    envelope = answer.body.get("Error") if isinstance(answer.body, dict) else None
    envelope = envelope if isinstance(envelope, dict) else {}
    message = envelope.get("Message") if isinstance(envelope.get("Message"), str) else None
    details = views.details_of(envelope.get("Details"), collection)
    message = said(message, details)
    status = answer.status
    if status == 400:
        return errors.ValidationError(message, details=details or None)
    if status == 404:
        return errors.NotFound(message)
    if status == 409:
        return errors.Conflict(message, details=details or None)
    if status == 413:
        return errors.PayloadTooLarge(MAX_BULK_BODY_BYTES)
    if status == 422:
        return errors.Unprocessable(message, details=details or None)
    log.error("the CRM refused a dashboard call with %s %s", status, answer.error_code)
    return errors.UpstreamError()


async def _call(client: ServiceClient, method: str, path: str, *, json: Any = None,
                params: dict[str, Any] | None = None, ok: tuple[int, ...] = (200,),
                collection: str = "Contacts") -> dict[str, Any]:
    answer = await client.request(method, path, json=json, params=params)
    if 400 <= answer.status < 500:
        raise refusal(answer, collection)
    if answer.status not in ok or not isinstance(answer.body, dict):
        log.error("the CRM answered %s %s with %s and an unexpected body", method, path, answer.status)
        raise errors.UpstreamError()
    return answer.body


def _read(view: Callable[[dict[str, Any]], T], body: dict[str, Any], what: str) -> T:
    """The CRM's answer through a view; a body that is not what the CRM documents is 502."""
    try:
        return view(body)
    except (KeyError, TypeError, ValueError):
        log.error("the CRM answered %s with a body of an unexpected shape", what)
        raise errors.UpstreamError() from None


def _given(body: ContactCreate) -> dict[str, Any]:
    """The fields of a contact the request set, checked for an identifier (as the CRM reads them:
    an external id of blanks is none)."""
    values = body.model_dump(exclude_unset=True)
    present = [name for name in IDENTIFIERS if isinstance(values.get(name), str)
               and (values[name].strip() if name == "external_id" else values[name])]
    if not present:
        raise errors.Unprocessable("A contact needs at least one of Email, Phone or ExternalId.",
                                   details={"Email": "one of Email, Phone, ExternalId is required"})
    return values


# --- contacts -----------------------------------------------------------------------------------------

async def list_contacts(client: ServiceClient, tenant_id: str, paging: Paging, *, q: str | None,
                        list_id: str | None) -> dict[str, Any]:
    params = paging.params()
    q = query_text("q", q)
    if q is not None:
        params["q"] = q
    if list_id:
        params["list_id"] = list_id_of(list_id)
    body = await _call(client, "GET", f"{_base(tenant_id)}/contatos", params=params)
    return _read(views.contacts_view, body, "a contact listing")


async def create_contact(client: ServiceClient, tenant_id: str, body: ContactCreate) -> dict[str, Any]:
    """Create the contact, or update the one its identifiers name (the CRM's upsert)."""
    answer = await _call(client, "POST", f"{_base(tenant_id)}/contatos", json=views.crm_contact(_given(body)),
                         ok=(200, 201))
    return _read(views.contact_answer, answer, "a contact write")


def _item_refusal(index: int, problem: errors.HttpError | pydantic.ValidationError) -> dict[str, Any]:
    error = validation_error(problem) if isinstance(problem, pydantic.ValidationError) else problem
    return views.item_error(index, error.code, error.message, error.details or {})


async def bulk_contacts(client: ServiceClient, tenant_id: str, items: list[Any]) -> dict[str, Any]:
    """Upsert 1 to 5,000 contacts. Each item is checked here for its shape (a refused one is an
    entry of ``Errors`` with its index in the body); the others go to the CRM in one call (one CRM
    transaction), whose refused items come back with their index in the body too."""
    if not items:
        raise errors.Unprocessable("Contacts is empty: give 1 to 5000 contacts.", details={"Contacts": "empty"})
    if len(items) > MAX_BULK:
        raise errors.Unprocessable(f"Contacts holds {len(items)} contacts; at most {MAX_BULK} per call.",
                                   details={"Contacts": f"at most {MAX_BULK}"})
    refused: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []
    source: list[int] = []  # source[i]: the body's index of the i-th item sent
    for index, raw in enumerate(items):
        try:
            if not isinstance(raw, dict):
                raise errors.ValidationError("Each contact is a JSON object.", details={"Contact": "not an object"})
            sent.append(views.crm_contact(_given(ContactCreate.model_validate(raw))))
            source.append(index)
        except (errors.HttpError, pydantic.ValidationError) as problem:
            refused.append(_item_refusal(index, problem))
    created = updated = 0
    if sent:
        body = await _call(client, "POST", f"{_base(tenant_id)}/contatos/lote", json=views.crm_contacts(sent))
        created, updated, crm_refused = _read(views.bulk_counts, body, "a bulk import")
        for entry in crm_refused:
            index, code, message, details = _read(views.crm_item_error, entry, "a bulk import")
            if not 0 <= index < len(source):
                log.error("the CRM named item %s of a bulk import of %s", index, len(source))
                raise errors.UpstreamError()
            refused.append(views.item_error(source[index], code, said(message, details) or message, details))
    refused.sort(key=lambda entry: entry["Index"])
    return views.bulk_view(created, updated, refused)


# --- lists --------------------------------------------------------------------------------------------

async def list_lists(client: ServiceClient, tenant_id: str, paging: Paging) -> dict[str, Any]:
    body = await _call(client, "GET", f"{_base(tenant_id)}/listas", params=paging.params())
    return _read(views.lists_view, body, "a list listing")


async def upsert_list(client: ServiceClient, tenant_id: str, body: ListUpsert) -> dict[str, Any]:
    """Create the list of this slug, or rename it (the slug is derived from the name when absent)."""
    answer = await _call(client, "POST", f"{_base(tenant_id)}/listas",
                         json=views.crm_list(body.model_dump(exclude_unset=True)), ok=(201,))
    return _read(views.list_answer, answer, "a list write")


async def add_members(client: ServiceClient, tenant_id: str, list_id: str, contact_ids: list[str]) -> dict[str, Any]:
    """Add contacts to the account's list (idempotent); ids that are not contacts of the account
    come back in ``NotFound``; another account's list is the 404 of a missing one."""
    list_id = list_id_of(list_id)
    if not contact_ids:
        raise errors.Unprocessable("ContactIds is empty: give 1 to 5000 contact ids.",
                                   details={"ContactIds": "empty"})
    if len(contact_ids) > MAX_MEMBERS:
        raise errors.Unprocessable(f"ContactIds holds {len(contact_ids)} ids; at most {MAX_MEMBERS} per call.",
                                   details={"ContactIds": f"at most {MAX_MEMBERS}"})
    body = await _call(client, "POST", f"{_base(tenant_id)}/listas/{list_id}/membros",
                       json=views.crm_members(contact_ids), collection="ContactIds")
    return _read(views.added_view, body, "a members write")
