"""Contacts: the rules behind /v1/contatos and the platform's internal contact routes.

Natural identity, per account: the e-mail (trimmed, lower-cased), the phone (E.164: ``+`` and 7 to
15 digits, spaces, dots, dashes and parentheses dropped) and the external id (the account's own
key, exact). Writing a contact whose identifiers match an existing one updates it (upsert);
identifiers that match two different contacts are a 409. Every query is filtered by the tenant:
another account's id is the same 404 as a missing one.

Bulk upsert (up to 5,000) validates each item on its own (errors carry the source index), merges
items of one call that name the same contact, finds the existing contacts in one query, then
writes with one multi-row INSERT and one multi-row UPDATE, all in the caller's transaction. Bulk
is the contacts' import: it takes off the CSV export's formula guard (``unguarded``), so a file
exported and imported again keeps every contact exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pydantic
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.crm.contact.schemas import MAX_BULK, ContactWrite
from app.crm.destination import service as destinations
from app.crm.errors import IdentityClash, InvalidContact
from app.http import errors
from app.http.csv_cells import restore
from app.http.bodies import validation_error
from app.http.paging import KeysetPage, Page
from models.crm import Contact, ContactList
from models.crm.contact import attributes_json, blind_index, blind_indexes, new_contact_id, seal

EMAIL = re.compile(r"[^@\s\"(),:;<>\[\]\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+")
PHONE = re.compile(r"\+[1-9][0-9]{6,14}")
PHONE_PUNCTUATION = re.compile(r"[\s.\-()]")


def normalize_email(raw: str) -> str:
    value = raw.strip().lower()
    if len(value) > 254 or not EMAIL.fullmatch(value):
        raise InvalidContact("email is not a valid e-mail address.", details={"email": "not a valid e-mail address"})
    return value


def normalize_phone(raw: str) -> str:
    value = PHONE_PUNCTUATION.sub("", raw.strip())
    if value.startswith("00"):
        value = "+" + value[2:]
    if not PHONE.fullmatch(value):
        raise InvalidContact("telefone is not an E.164 number (+ and 7 to 15 digits).",
                             details={"telefone": "not an E.164 number"})
    return value


@dataclass
class Prepared:
    """One contact write, normalized and sealed; ``given`` names the fields the request set."""

    given: set[str]
    email: str | None = None
    phone: str | None = None
    external_id: str | None = None
    name: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    subscribed: bool | None = None

    def keys(self) -> list[tuple[str, str]]:
        found = [("email", self.email), ("phone", self.phone), ("external", self.external_id)]
        return [(kind, value) for kind, value in found if value is not None]

    def merge(self, later: Prepared) -> None:
        for name in later.given:
            if name == "attributes":
                self.attributes.update(later.attributes)
            else:
                setattr(self, name, getattr(later, name))
        self.given |= later.given


FIELDS = {"email": "email", "telefone": "phone", "id_externo": "external_id", "nome": "name",
          "atributos": "attributes", "inscrito": "subscribed"}


def prepare(values: dict[str, Any], *, require_identity: bool = True) -> Prepared:
    """Normalize a write (``values``: the body's fields that were given, by their wire names)."""
    prepared = Prepared(given=set())
    for wire, name in FIELDS.items():
        if wire not in values:
            continue
        value = values[wire]
        if isinstance(value, str) and wire in ("id_externo", "nome"):
            value = value.strip() or None
        if value is not None and wire == "email":
            value = normalize_email(value)
        elif value is not None and wire == "telefone":
            value = normalize_phone(value)
        if wire == "atributos":
            value = dict(value or {})
        setattr(prepared, name, value)
        prepared.given.add(name)
    if require_identity and not prepared.keys():
        raise InvalidContact("A contact needs at least one of email, telefone or id_externo.",
                             details={"email": "one of email, telefone, id_externo is required"})
    return prepared


# --- one contact -------------------------------------------------------------------------------------

async def contact(conn: BaseDBAsyncClient, tenant: str, contact_id: str) -> Contact:
    found = await Contact.get_or_none(public_id=contact_id, tenant=tenant, using_db=conn)
    if found is None:
        raise errors.NotFound("No contact with this id.")
    return found


async def _matching(conn: BaseDBAsyncClient, tenant: str, prepared: Prepared) -> list[Contact]:
    """The account's contacts that any identifier of ``prepared`` names."""
    ids = await _ids_matching(conn, tenant, blind_indexes(tenant, "email", prepared.email),
                              blind_indexes(tenant, "phone", prepared.phone), prepared.external_id)
    return await Contact.filter(tenant=tenant, id__in=ids).using_db(conn) if ids else []


async def _ids_matching(conn: BaseDBAsyncClient, tenant: str, email_indexes: list[str], phone_indexes: list[str],
                        external_id: str | None) -> list[int]:
    """``*_indexes``: the value's index under every key of SECRET_KEY (models/crm/contact.py blind_indexes)."""
    rows = await conn.execute_query_dict(
        "SELECT id FROM contacts WHERE tenant = $1 AND (email_index = ANY($2::text[]) OR phone_index = ANY($3::text[]) "
        "OR external_id = $4)", [tenant, email_indexes, phone_indexes, external_id])
    return [row["id"] for row in rows]


def _apply(row: Contact, prepared: Prepared) -> None:
    tenant = row.tenant
    if "email" in prepared.given:
        row.email_sealed, row.email_index = seal(tenant, prepared.email), blind_index(tenant, "email", prepared.email)
    if "phone" in prepared.given:
        row.phone_sealed, row.phone_index = seal(tenant, prepared.phone), blind_index(tenant, "phone", prepared.phone)
    if "external_id" in prepared.given:
        row.external_id = prepared.external_id
    if "name" in prepared.given:
        row.name_sealed = seal(tenant, prepared.name)
    if "attributes" in prepared.given:
        merged = {**(row.attributes or {}), **prepared.attributes}
        row.attributes = {key: value for key, value in merged.items() if value is not None}
    if prepared.subscribed is not None:
        row.subscribed = prepared.subscribed


async def _save(conn: BaseDBAsyncClient, row: Contact, *, create: bool = False) -> None:
    try:
        await row.save(using_db=conn, force_create=create)
    except IntegrityError:
        raise IdentityClash("Another contact of this account already has this e-mail, phone or external id.",
                            details={"contato": "identifier already used by another contact"}) from None


async def upsert(conn: BaseDBAsyncClient, tenant: str, body: ContactWrite) -> tuple[Contact, bool]:
    """Create the contact, or update the one its identifiers name; (row, created)."""
    values = body.model_dump(exclude_unset=True)
    prepared = prepare(values)
    matches = await _matching(conn, tenant, prepared)
    if len(matches) > 1:
        raise IdentityClash("These identifiers belong to different contacts of this account.",
                            details={"contato": f"matches {len(matches)} contacts"})
    created = not matches
    row = matches[0] if matches else Contact(public_id=new_contact_id(), tenant=tenant, attributes={},
                                             subscribed=True)
    _apply(row, prepared)
    await _save(conn, row, create=created)
    await destinations.emit_contact(conn, tenant, row, created)
    return row, created


async def update(conn: BaseDBAsyncClient, tenant: str, contact_id: str, changes: dict[str, Any]) -> Contact:
    """A partial edit; the contact keeps at least one identifier."""
    row = await contact(conn, tenant, contact_id)
    if row.anonymized_at is not None:
        raise errors.Conflict("This contact was anonymized; it cannot be edited.")
    prepared = prepare(changes, require_identity=False)
    _apply(row, prepared)
    if not (row.email_index or row.phone_index or row.external_id):
        raise InvalidContact("A contact needs at least one of email, telefone or id_externo.",
                             details={"email": "one of email, telefone, id_externo is required"})
    await _save(conn, row)
    await destinations.emit_contact(conn, tenant, row, False)
    return row


async def delete(conn: BaseDBAsyncClient, tenant: str, contact_id: str) -> None:
    row = await contact(conn, tenant, contact_id)
    await row.delete(using_db=conn)  # memberships and opt-outs go with it


async def list_contacts(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage, *, q: str | None,
                        list_id: str | None) -> Page[Contact]:
    """Newest first; ``q`` is an exact e-mail, phone or external id; ``list_id`` keeps the list's members."""
    query = Contact.filter(tenant=tenant).using_db(conn)
    if q is not None and q.strip():
        q = q.strip()
        if "@" in q:
            try:
                query = query.filter(email_index__in=blind_indexes(tenant, "email", normalize_email(q)))
            except InvalidContact:
                query = query.filter(id=-1)
        else:
            try:
                phone = normalize_phone(q)
            except InvalidContact:
                query = query.filter(external_id=q)
            else:
                query = query.filter(
                    id__in=await _ids_matching(conn, tenant, [], blind_indexes(tenant, "phone", phone), q))
    if list_id is not None:
        found = await ContactList.get_or_none(public_id=list_id, tenant=tenant, using_db=conn)
        if found is None:
            raise errors.NotFound("No list with this id.")
        query = query.filter(memberships__list_id=found.id)
    return await page.fetch(conn, query, audience=f"{tenant}:contatos:{list_id or ''}:{q or ''}")


# --- bulk ---------------------------------------------------------------------------------------------

@dataclass
class BulkResult:
    created: int = 0
    updated: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)


def _item_error(index: int, problem: Exception) -> dict[str, Any]:
    if isinstance(problem, pydantic.ValidationError):
        problem = validation_error(problem)
    details = getattr(problem, "details", None) or {}
    return {"indice": index, "codigo": getattr(problem, "code", "ValidationError"),
            "mensagem": getattr(problem, "message", str(problem)), "detalhes": details}


_INSERT = """
INSERT INTO contacts (public_id, tenant, email_sealed, email_index, phone_sealed, phone_index, name_sealed,
                      external_id, attributes, subscribed, created_at, updated_at)
SELECT u.public_id, $1, u.es, u.ei, u.ps, u.pi, u.ns, u.x, jsonb_strip_nulls(u.a::jsonb), u.s, now(), now()
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
            $10::bool[]) AS u(public_id, es, ei, ps, pi, ns, x, a, s)
"""

_UPDATE = """
UPDATE contacts c SET
  email_sealed = CASE WHEN u.se THEN u.es ELSE c.email_sealed END,
  email_index = CASE WHEN u.se THEN u.ei ELSE c.email_index END,
  phone_sealed = CASE WHEN u.sp THEN u.ps ELSE c.phone_sealed END,
  phone_index = CASE WHEN u.sp THEN u.pi ELSE c.phone_index END,
  name_sealed = CASE WHEN u.sn THEN u.ns ELSE c.name_sealed END,
  external_id = CASE WHEN u.sx THEN u.x ELSE c.external_id END,
  attributes = jsonb_strip_nulls(c.attributes || u.a::jsonb),
  subscribed = COALESCE(u.s, c.subscribed),
  updated_at = now()
FROM unnest($2::bigint[], $3::bool[], $4::text[], $5::text[], $6::bool[], $7::text[], $8::text[], $9::bool[],
            $10::text[], $11::bool[], $12::text[], $13::text[], $14::bool[])
     AS u(id, se, es, ei, sp, ps, pi, sn, ns, sx, x, a, s)
WHERE c.id = u.id AND c.tenant = $1
"""


# The cells the export guards one by one (app/http/csv_cells.py); atributos travel as one JSON cell,
# guarded as a whole, so their values are taken as they are.
GUARDED_FIELDS = ("email", "telefone", "id_externo", "nome")


def unguarded(item: dict[str, Any]) -> dict[str, Any]:
    """A bulk item with the export's formula guard (one leading ``'``) taken off its text fields, so
    the export's file imported again keeps every contact exactly."""
    return {key: restore(value) if key in GUARDED_FIELDS else value for key, value in item.items()}


def checked_item(raw: Any) -> Prepared:
    """One bulk item validated and normalized as the bulk route takes it (raises what it refuses);
    the import's preview checks its rows with it, so what it counts valid is what the write takes."""
    if not isinstance(raw, dict):
        raise errors.ValidationError("Each contact is a JSON object.", details={"contato": "not an object"})
    return prepare(ContactWrite.model_validate(unguarded(raw)).model_dump(exclude_unset=True))


def item_error(index: int, problem: Exception) -> dict[str, Any]:
    """A refused item as the bulk route reports it: {indice, codigo, mensagem, detalhes}."""
    return _item_error(index, problem)


async def bulk_upsert(conn: BaseDBAsyncClient, tenant: str, items: list[Any]) -> BulkResult:
    """Upsert up to MAX_BULK contacts in the caller's transaction (multi-row statements)."""
    if not items:
        raise errors.Unprocessable("contatos is empty: give 1 to 5000 contacts.", details={"contatos": "empty"})
    if len(items) > MAX_BULK:
        raise errors.Unprocessable(f"contatos holds {len(items)} contacts; at most {MAX_BULK} per call.",
                                   details={"contatos": f"at most {MAX_BULK}"})
    result = BulkResult()
    slots: list[tuple[Prepared, list[int]]] = []  # merged write, source indexes
    slot_of: dict[tuple[str, str], int] = {}
    for index, raw in enumerate(items):
        try:
            prepared = checked_item(raw)
        except (errors.HttpError, pydantic.ValidationError) as problem:
            result.errors.append(_item_error(index, problem))
            continue
        found = {slot_of[key] for key in prepared.keys() if key in slot_of}
        if len(found) > 1:
            result.errors.append(_item_error(index, IdentityClash(
                "These identifiers belong to different contacts of this call.",
                details={"contato": "identifiers of different contacts"})))
            continue
        if found:
            slot = found.pop()
            slots[slot][0].merge(prepared)
            slots[slot][1].append(index)
        else:
            slot = len(slots)
            slots.append((prepared, [index]))
        for key in slots[slot][0].keys():
            slot_of[key] = slot

    # The existing contacts the call names, in one query; an index under any key of SECRET_KEY names one.
    indexed = [(blind_indexes(tenant, "email", p.email), blind_indexes(tenant, "phone", p.phone), p.external_id)
               for p, _ in slots]
    rows = await conn.execute_query_dict(
        "SELECT id, email_index, phone_index, external_id FROM contacts WHERE tenant = $1 AND "
        "(email_index = ANY($2::text[]) OR phone_index = ANY($3::text[]) OR external_id = ANY($4::text[]))",
        [tenant, [e for es, _, _ in indexed for e in es], [p for _, ps, _ in indexed for p in ps],
         [x for _, _, x in indexed if x]])
    by_key: dict[tuple[str, str], int] = {}
    for row in rows:
        for kind, column in (("email", "email_index"), ("phone", "phone_index"), ("external", "external_id")):
            if row[column] is not None:
                by_key[(kind, row[column])] = row["id"]

    inserts: list[tuple] = []
    updates: list[tuple] = []
    for (prepared, indexes), (email_indexes, phone_indexes, external_id) in zip(slots, indexed):
        keys = [*(("email", index) for index in email_indexes), *(("phone", index) for index in phone_indexes),
                ("external", external_id)]
        existing = {by_key[key] for key in keys if key[1] is not None and key in by_key}
        email_index, phone_index = next(iter(email_indexes), None), next(iter(phone_indexes), None)  # the newest
        if len(existing) > 1:
            for index in indexes:
                result.errors.append(_item_error(index, IdentityClash(
                    "These identifiers belong to different contacts of this account.",
                    details={"contato": f"matches {len(existing)} contacts"})))
            continue
        sealed = (seal(tenant, prepared.email), email_index, seal(tenant, prepared.phone), phone_index,
                  seal(tenant, prepared.name), external_id, attributes_json(prepared.attributes))
        if existing:
            updates.append((existing.pop(), "email" in prepared.given, sealed[0], sealed[1],
                            "phone" in prepared.given, sealed[2], sealed[3], "name" in prepared.given, sealed[4],
                            "external_id" in prepared.given, sealed[5], sealed[6], prepared.subscribed))
            result.updated += len(indexes)
        else:
            subscribed = True if prepared.subscribed is None else prepared.subscribed
            inserts.append((new_contact_id(), *sealed, subscribed))
            result.created += 1
            result.updated += len(indexes) - 1
    try:
        if inserts:
            await conn.execute_query(_INSERT, [tenant, *map(list, zip(*inserts))])
        if updates:
            await conn.execute_query(_UPDATE, [tenant, *map(list, zip(*updates))])
    except IntegrityError:
        raise IdentityClash("Some of these contacts were written by another request at the same time; "
                            "send the call again.") from None
    result.errors.sort(key=lambda error: error["indice"])
    return result


# --- export -------------------------------------------------------------------------------------------

EXPORT_BATCH = 1000


async def export_batch(conn: BaseDBAsyncClient, tenant: str, after: int, limit: int = EXPORT_BATCH) -> list[Contact]:
    """The account's contacts after internal id ``after``, oldest first (the export's pages)."""
    return await Contact.filter(tenant=tenant, id__gt=after).using_db(conn).order_by("id").limit(limit)

