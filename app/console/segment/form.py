"""A segment's rules as a form, and back: the console builds the CRM's rule tree
(app/crm/segment/rules.py) from form fields, so nobody types JSON.

The form holds a match (``all`` or ``any``) and numbered rows; each row is one condition of a kind:

    subscribed   the contact is (or is not) subscribed                  {"campo": "inscrito", ...}
    identifier   the contact has (or has no) e-mail, phone, external id  {"campo": ..., "op": "existe"|...}
    attribute    an attribute compared with a value                      {"atributo": ..., "op": ..., "valor": ...}
    list         a member (or not) of one of the account's lists         {"lista": ..., "membro": ...}
    channel      receives (or opted out of) a channel                    {"canal": ..., "recebe": ...}
    event        has (or has not) had an event, within N days            {"evento": ..., "tem": ..., "dias": ...}

A tree of that shape (one group, or a single condition) comes back as rows to edit; a deeper tree,
written through the API, is shown but not edited here.
"""

from __future__ import annotations

from typing import Any

KINDS = {"subscribed": "Subscribed", "identifier": "Has an e-mail, phone or external id", "attribute": "Attribute",
         "list": "List", "channel": "Channel consent", "event": "Event"}
IDENTIFIERS = {"email": "E-mail", "telefone": "Phone", "id_externo": "External id"}
ATTRIBUTE_OPS = {"igual": "is", "diferente": "is not", "contem": "contains", "maior": "is more than",
                 "menor": "is less than", "existe": "is set", "nao_existe": "is not set"}
CHANNELS = {"email": "E-mail", "sms": "SMS", "push": "Push", "whatsapp": "WhatsApp"}
MAX_ROWS = 50
FIELDS = ("kind", "value", "attr", "op", "list", "member", "channel", "receives", "event", "has", "days", "field")


def blank(kind: str = "subscribed") -> dict[str, str]:
    row = {name: "" for name in FIELDS}
    row.update(kind=kind, member="yes", receives="yes", has="yes", op="igual", field="email",
               channel="email")
    return row


def rows_of_form(form: Any) -> list[dict[str, str]]:
    """The rows as the form sent them (``kind-0``, ``attr-0`` ...), in order, at most MAX_ROWS."""
    try:
        count = min(int(form.get("rows") or 0), MAX_ROWS)
    except ValueError:
        count = 0
    rows = []
    for index in range(count):
        kind = form.get(f"kind-{index}")
        if kind not in KINDS:
            continue
        row = blank(kind)
        row.update({name: (form.get(f"{name}-{index}") or "").strip()[:200] for name in FIELDS if name != "kind"
                    if form.get(f"{name}-{index}") is not None})
        rows.append(row)
    return rows


def _condition(row: dict[str, str], at: str, errors: dict[str, str]) -> dict[str, Any] | None:
    kind = row["kind"]
    if kind == "subscribed":
        return {"campo": "inscrito", "op": "igual", "valor": row["value"] != "no"}
    if kind == "identifier":
        field = row["field"] if row["field"] in IDENTIFIERS else "email"
        return {"campo": field, "op": "nao_existe" if row["op"] == "nao_existe" else "existe"}
    if kind == "list":
        if not row["list"]:
            errors[f"list-{at}"] = "Choose a list"
            return None
        return {"lista": row["list"], "membro": row["member"] != "no"}
    if kind == "channel":
        return {"canal": row["channel"] if row["channel"] in CHANNELS else "email", "recebe": row["receives"] != "no"}
    if kind == "event":
        if not row["event"]:
            errors[f"event-{at}"] = "Enter the event's name, like order.paid"
            return None
        node: dict[str, Any] = {"evento": row["event"], "tem": row["has"] != "no"}
        if row["days"]:
            if not row["days"].isdigit() or not 1 <= int(row["days"]) <= 3650:
                errors[f"days-{at}"] = "Enter the days as a whole number between 1 and 3650"
                return None
            node["dias"] = int(row["days"])
        return node
    # attribute
    if not row["attr"]:
        errors[f"attr-{at}"] = "Enter the attribute's name"
        return None
    op = row["op"] if row["op"] in ATTRIBUTE_OPS else "igual"
    if op in ("existe", "nao_existe"):
        return {"atributo": row["attr"], "op": op}
    value: Any = row["value"]
    if op in ("maior", "menor"):
        try:
            value = float(value.replace(",", ".")) if "." in value or "," in value else int(value)
        except ValueError:
            errors[f"value-{at}"] = "Enter a number to compare with"
            return None
    elif not value:
        errors[f"value-{at}"] = "Enter the value to compare with"
        return None
    return {"atributo": row["attr"], "op": op, "valor": value}


def rules_of(match: str, rows: list[dict[str, str]]) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """(the rule tree, or None when a row is incomplete; the problems by field id)."""
    errors: dict[str, str] = {}
    conditions = [_condition(row, str(index), errors) for index, row in enumerate(rows)]
    if not rows:
        errors["add-rule"] = "Add at least one rule"
    if errors:
        return None, errors
    return {"qualquer" if match == "any" else "todas": conditions}, {}


def _row_of(node: Any) -> dict[str, str] | None:
    if not isinstance(node, dict):
        return None
    if node.get("campo") == "inscrito":
        return {**blank("subscribed"), "value": "yes" if node.get("valor") else "no"}
    if node.get("campo") in IDENTIFIERS and node.get("op") in ("existe", "nao_existe"):
        return {**blank("identifier"), "field": node["campo"], "op": node["op"]}
    if "atributo" in node and node.get("op") in ATTRIBUTE_OPS:
        return {**blank("attribute"), "attr": str(node["atributo"]), "op": node["op"],
                "value": "" if node.get("valor") is None else str(node["valor"])}
    if "lista" in node:
        return {**blank("list"), "list": str(node["lista"]), "member": "no" if node.get("membro") is False else "yes"}
    if "canal" in node:
        return {**blank("channel"), "channel": str(node["canal"]), "receives": "no" if node.get("recebe") is False else "yes"}
    if "evento" in node:
        return {**blank("event"), "event": str(node["evento"]), "has": "no" if node.get("tem") is False else "yes",
                "days": str(node.get("dias") or "")}
    return None


def rows_of_rules(rules: Any) -> tuple[str, list[dict[str, str]]] | None:
    """(match, rows) for a tree this form can edit; None for one it cannot."""
    if isinstance(rules, dict) and len(rules) == 1 and ("todas" in rules or "qualquer" in rules):
        match = "all" if "todas" in rules else "any"
        rows = [_row_of(node) for node in rules.get("todas") or rules.get("qualquer") or []]
        return (match, rows) if rows and all(rows) else None
    row = _row_of(rules)
    return ("all", [row]) if row else None
