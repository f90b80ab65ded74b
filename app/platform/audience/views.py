"""Contacts and lists as the dashboard shows them (PascalCase), read from the CRM's answers
(snake_case Portuguese, docs/crm.md "Internal routes"): the only place both sets of field names
are spelled, in both directions (the platform's body to the CRM's, the CRM's answer to ours)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape

# The contact's fields: the body model's attribute -> the CRM's field.
CONTACT_TO_CRM = {"email": "email", "phone": "telefone", "external_id": "id_externo", "name": "nome",
                  "attributes": "atributos", "subscribed": "inscrito"}
LIST_TO_CRM = {"name": "nome", "slug": "slug"}
# The CRM's field names as they can appear in its refusals' Details -> the dashboard's.
CRM_FIELDS = {"email": "Email", "telefone": "Phone", "id_externo": "ExternalId", "nome": "Name",
              "atributos": "Attributes", "inscrito": "Subscribed", "contato": "Contact", "slug": "Slug"}


def crm_contact(values: dict[str, Any]) -> dict[str, Any]:
    """A contact body for the CRM, from the given fields of :class:`ContactCreate` (by attribute)."""
    return {CONTACT_TO_CRM[name]: value for name, value in values.items()}


def crm_list(values: dict[str, Any]) -> dict[str, Any]:
    return {LIST_TO_CRM[name]: value for name, value in values.items()}


def crm_contacts(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"contatos": items}


def crm_members(contact_ids: list[str]) -> dict[str, Any]:
    return {"contatos": contact_ids}


def field_name(crm_field: str, collection: str = "Contacts") -> str:
    """The dashboard's name of a field the CRM named in a refusal (``atributos.x`` -> ``Attributes.x``;
    the CRM's ``contatos`` is the body's list)."""
    head, dot, rest = crm_field.partition(".")
    name = collection if head == "contatos" else CRM_FIELDS.get(head, head)
    return f"{name}{dot}{rest}"


def details_of(details: Any, collection: str = "Contacts") -> dict[str, Any]:
    if not isinstance(details, dict):
        return {}
    return {field_name(str(key), collection): value for key, value in details.items()}


def contact_view(crm: dict[str, Any]) -> dict[str, Any]:
    """The CRM's ``contato`` as the dashboard's ``Contact`` (KeyError or TypeError when malformed)."""
    return {
        "Id": crm["id"],
        "Email": crm["email"],
        "Phone": crm["telefone"],
        "ExternalId": crm["id_externo"],
        "Name": crm["nome"],
        "Attributes": crm["atributos"],
        "Subscribed": crm["inscrito"],
        "CreatedAt": crm["criado_em"],
        "UpdatedAt": crm["atualizado_em"],
        "AnonymizedAt": crm["anonimizado_em"],
    }


def contact_answer(crm: dict[str, Any]) -> dict[str, Any]:
    """The CRM's ``{contato}`` as ``{Contact}``."""
    return {"Contact": contact_view(crm["contato"])}


def contacts_view(crm: dict[str, Any]) -> dict[str, Any]:
    return {"Contacts": [contact_view(row) for row in crm["contatos"]], "NextCursor": crm["proximo_cursor"],
            "HasMore": crm["tem_mais"]}


def item_error(index: int, code: str, message: str, details: dict[str, Any]) -> dict[str, Any]:
    """One refused item of a bulk call, with its index in the body's ``Contacts``."""
    return {"Index": index, "Code": code, "Message": message, "Details": details}


def crm_item_error(crm: dict[str, Any]) -> tuple[int, str, str, dict[str, Any]]:
    """The CRM's refused item: (index in what the platform sent, code, message, details)."""
    return int(crm["indice"]), str(crm["codigo"]), str(crm["mensagem"]), details_of(crm.get("detalhes"))


def bulk_counts(crm: dict[str, Any]) -> tuple[int, int, list[dict[str, Any]]]:
    created, updated, refused = crm["criados"], crm["atualizados"], crm["erros"]
    if not isinstance(created, int) or not isinstance(updated, int) or not isinstance(refused, list):
        raise TypeError("bulk answer")
    return created, updated, refused


def bulk_view(created: int, updated: int, refused: list[dict[str, Any]]) -> dict[str, Any]:
    return {"Created": created, "Updated": updated, "Errors": refused}


def list_view(crm: dict[str, Any]) -> dict[str, Any]:
    """The CRM's ``lista`` as the dashboard's ``List``."""
    return {"Id": crm["id"], "Slug": crm["slug"], "Name": crm["nome"], "MemberCount": crm["membros"],
            "CreatedAt": crm["criada_em"], "UpdatedAt": crm["atualizada_em"]}


def list_answer(crm: dict[str, Any]) -> dict[str, Any]:
    """The CRM's ``{lista}`` as ``{List}``."""
    return {"List": list_view(crm["lista"])}


def lists_view(crm: dict[str, Any]) -> dict[str, Any]:
    return {"Lists": [list_view(row) for row in crm["listas"]], "NextCursor": crm["proximo_cursor"],
            "HasMore": crm["tem_mais"]}


def added_view(crm: dict[str, Any]) -> dict[str, Any]:
    added, missing = crm["adicionados"], crm["inexistentes"]
    if not isinstance(added, int) or not isinstance(missing, list):
        raise TypeError("members answer")
    return {"Added": added, "NotFound": missing}


INT = {"type": "integer"}
CONTACT_SHAPE = shape(
    Id=described(STRING, "The contact's id (ctt_...)."),
    Email=described(NULLABLE_STRING, "The contact's e-mail address; null when none."),
    Phone=described(NULLABLE_STRING, "The contact's phone number; null when none."),
    ExternalId=described(NULLABLE_STRING, "Your id for the contact; null when none."),
    Name=described(NULLABLE_STRING, "The contact's name; null when none."),
    Attributes=described({"type": "object"}, "Your attributes of the contact (a flat JSON object)."),
    Subscribed=described({"type": "boolean"}, "Whether the contact is subscribed."),
    CreatedAt=described(TIMESTAMP, "When the contact was created."),
    UpdatedAt=described(TIMESTAMP, "When the contact last changed."),
    AnonymizedAt=described(NULLABLE_STRING, "When the contact was anonymized; null when it was not."))
LIST_SHAPE = shape(
    Id=described(STRING, "The list's id (lst_...)."),
    Slug=described(STRING, "The list's slug, unique in the account."),
    Name=described(STRING, "The list's name."),
    MemberCount=described(INT, "How many contacts the list holds."),
    CreatedAt=described(TIMESTAMP, "When the list was created."),
    UpdatedAt=described(TIMESTAMP, "When the list last changed."))
_PAGE = {"NextCursor": described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last."),
         "HasMore": described({"type": "boolean"}, "Whether there is a next page.")}
CONTACT = reply_of(Contact=described(CONTACT_SHAPE, "The contact."))
CONTACTS = reply_of(Contacts=described({"type": "array", "items": CONTACT_SHAPE}, "The account's contacts."), **_PAGE)
BULK = reply_of(
    Created=described(INT, "Contacts created."),
    Updated=described(INT, "Existing contacts updated (named by their identifiers)."),
    Errors=described({"type": "array", "items": shape(
        Index=described(INT, "The refused item's index in the body's Contacts."),
        Code=described(STRING, "The error's code, as the error envelope's."),
        Message=described(STRING, "What was wrong with it."),
        Details=described({"type": "object"}, "The fields at fault and why."))},
        "The items refused, by index; the others were written."))
LIST = reply_of(List=described(LIST_SHAPE, "The list."))
LISTS = reply_of(Lists=described({"type": "array", "items": LIST_SHAPE}, "The account's lists."), **_PAGE)
ADDED = reply_of(Added=described(INT, "Contacts added to the list now (those already in it are not counted)."),
                 NotFound=described({"type": "array", "items": STRING},
                                    "The ids given that are not contacts of the account."))
