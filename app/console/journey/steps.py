"""A journey's trigger and steps as forms and as words, and back: the console builds the CRM's
journey JSON (app/crm/journey/schemas.py) from form fields, so nobody types JSON.

Steps keep their ``id`` through edits and moves (a branch names the step it jumps to by id); a new
step gets the first free ``passo_<n>``. What the CRM says a journey lacks (``problemas``,
``{campo, motivo}`` with ``campo`` such as ``passos[2].texto``) is put on the step it names
(:func:`problems_by_place`) in words of the console (:func:`problem_words`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from app.console.segment import form as rules_form

STEP_KINDS = {"enviar": "Send a message", "esperar": "Wait", "condicao": "Branch on a condition", "sair": "Exit"}
CHANNELS = {"email": "E-mail", "sms": "SMS", "push": "Push", "whatsapp": "WhatsApp"}
TRIGGERS = {"": "Nothing yet", "lista": "Added to a list", "segmento": "Enters a segment", "evento": "An event",
            "formulario": "Sends a form", "lead": "Becomes a lead"}
SEND_TITLES = {"email": "Send an e-mail", "sms": "Send an SMS", "push": "Send a push", "whatsapp": "Send a WhatsApp message"}
UNITS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}
MAX_WAIT_SECONDS = 90 * 86400
ENROLLMENT_STATES = {"em_andamento": "Running", "aguardando": "Waiting", "concluida": "Finished",
                     "falhou": "Failed", "cancelada": "Cancelled"}
OUTCOMES = {"concluido": "Done", "ignorado": "Skipped", "falhou": "Failed"}
EVENT = re.compile(r"[A-Za-z0-9_.:-]{1,100}")
PLACE = re.compile(r"passos\[(\d+)\](?:\.(\w+))?")


def clock(value: str | None) -> str:
    """An ISO moment as a time of day in UTC ("12:25:03 UTC"), with its date when it is not today."""
    if not value:
        return ""
    try:
        moment = datetime.fromisoformat(value).astimezone(UTC)
    except ValueError:
        return value
    today = datetime.now(UTC).date()
    return moment.strftime("%H:%M:%S UTC" if moment.date() == today else "%Y-%m-%d %H:%M UTC")


def new_step_id(steps: list[dict]) -> str:
    taken = {step.get("id") for step in steps}
    number = 1
    while f"passo_{number}" in taken:
        number += 1
    return f"passo_{number}"


# --- words -------------------------------------------------------------------------------------------

def wait_words(seconds: int) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} second{'' if seconds == 1 else 's'}"


def rule_words(rule: Any) -> str:
    """A condition's rule in words, as the segment form understands it (else "a rule written through the API")."""
    editable = rules_form.rows_of_rules(rule)
    if editable is None:
        return "a rule written through the API"
    match, rows = editable
    parts = []
    for row in rows:
        kind = row["kind"]
        if kind == "subscribed":
            parts.append("is subscribed" if row["value"] != "no" else "is not subscribed")
        elif kind == "identifier":
            parts.append(f"has {'no ' if row['op'] == 'nao_existe' else 'an '}{rules_form.IDENTIFIERS[row['field']].lower()}")
        elif kind == "attribute":
            op = rules_form.ATTRIBUTE_OPS.get(row["op"], row["op"])
            parts.append(f"{row['attr']} {op}" + ("" if row["op"] in ("existe", "nao_existe") else f" {row['value']}"))
        elif kind == "list":
            parts.append(("is in" if row["member"] != "no" else "is not in") + " a list")
        elif kind == "channel":
            parts.append(("receives " if row["receives"] != "no" else "opted out of ") + CHANNELS.get(row["channel"], ""))
        elif kind == "event":
            days = f" in the last {row['days']} days" if row["days"] else ""
            parts.append(("had " if row["has"] != "no" else "never had ") + f"the event {row['event']}{days}")
    return (" and " if match == "all" else " or ").join(parts)


def step_title(step: dict) -> str:
    kind = step.get("tipo")
    if kind == "enviar":
        return SEND_TITLES.get(step.get("canal"), "Send a message")
    if kind == "esperar":
        return f"Wait {wait_words(int(step.get('segundos') or 0))}"
    if kind == "condicao":
        return "Branch"
    return "Exit"


def step_detail(step: dict, steps: list[dict]) -> str:
    kind = step.get("tipo")
    if kind == "enviar":
        if step.get("modelo"):
            return f"Template {step['modelo']}"
        if step.get("assunto"):
            return f"“{step['assunto']}”"
        return f"“{(step.get('texto') or '')[:80]}”" if step.get("texto") else "No content yet"
    if kind == "condicao":
        return (f"If the contact {rule_words(step.get('regra'))}: {target_words(step.get('se_sim'), steps)}; "
                f"otherwise: {target_words(step.get('se_nao'), steps)}")
    if kind == "sair":
        return "The contact leaves the journey"
    return "Then the next step"


def target_words(target: str | None, steps: list[dict]) -> str:
    if not target:
        return "the next step"
    for index, step in enumerate(steps):
        if step.get("id") == target:
            return f"go to step {index + 1} ({step_title(step)})"
    return "a step that no longer exists"


def trigger_words(trigger: dict | None, lists: dict[str, str], segments: dict[str, str]) -> str:
    if not trigger:
        return "No trigger yet: nobody enters this journey"
    kind = trigger.get("tipo")
    if kind == "lista":
        return f"When a contact is added to the list {lists.get(trigger.get('lista_id'), trigger.get('lista_id'))}"
    if kind == "segmento":
        return f"When a contact enters the segment {segments.get(trigger.get('segmento_id'), trigger.get('segmento_id'))}"
    if kind == "evento":
        return f"When a contact has the event {trigger.get('nome')}"
    if kind == "formulario":
        return f"When a contact sends the form {trigger['formulario_id']}" if trigger.get("formulario_id") \
            else "When a contact sends any form"
    return "When a contact becomes a lead"


def problem_words(field: str, reason: str, steps: list[dict]) -> str:
    """The CRM's problem in the console's words (its reasons name the API's fields)."""
    place = PLACE.fullmatch(field)
    key = place.group(2) if place else None
    step = steps[int(place.group(1))] if place and int(place.group(1)) < len(steps) else {}
    if field == "gatilho":
        return "Choose what makes a contact enter this journey"
    if field == "gatilho.lista_id":
        return "The entry list is not one of this account's lists (was it deleted?)"
    if field == "gatilho.segmento_id":
        return "The entry segment " + ("is not one of this account's segments" if reason.startswith("no segment")
                                       else "does not work: " + reason)
    if field == "passos":
        return "Add at least one step"
    if key == "modelo":
        return "Use a template or write the message, not both"
    if key == "texto":
        channel = step.get("canal")
        if channel == "email":
            return "An e-mail needs a subject and a text or HTML body (or a template)"
        if channel == "push":
            return "A push needs a title and a text (or a template)"
        return f"{'An' if channel == 'sms' else 'A'} {CHANNELS.get(channel, 'message')} needs a text (or a template)"
    if key == "de":
        return "An e-mail needs a From address on one of the account's verified domains"
    if key == "variaveis":
        return "Variables go with a template"
    if key in ("se_sim", "se_nao"):
        which = "yes" if key == "se_sim" else "no"
        if "forward" in reason:
            return f"When {which}, a branch can only go to a later step"
        return f"When {which}, the step to go to no longer exists"
    if key == "regra":
        return f"The condition does not work: {reason}"
    return reason


def problems_by_place(problems: list[dict], steps: list[dict]) -> tuple[list[str], dict[int, list[dict]], list[str]]:
    """(the trigger's problems, each step's by its index {field, words}, the journey's own)."""
    trigger, by_step, journey = [], {}, []
    for item in problems:
        field, words = item.get("campo", ""), problem_words(item.get("campo", ""), item.get("motivo", ""), steps)
        place = PLACE.fullmatch(field)
        if place:
            by_step.setdefault(int(place.group(1)), []).append({"field": place.group(2) or "", "words": words})
        elif field.startswith("gatilho"):
            trigger.append(words)
        else:
            journey.append(words)
    return trigger, by_step, journey


# --- the trigger's form --------------------------------------------------------------------------------

def trigger_values(trigger: dict | None) -> dict[str, str]:
    trigger = trigger or {}
    return {"trigger": trigger.get("tipo", ""), "list": trigger.get("lista_id", ""),
            "segment": trigger.get("segmento_id", ""), "event": trigger.get("nome", ""),
            "form": trigger.get("formulario_id") or ""}


def trigger_of(values: dict[str, str], errors: dict[str, str]) -> dict | None:
    kind = values.get("trigger", "")
    if kind == "lista":
        if not values.get("list"):
            errors["list"] = "Choose the list"
        return {"tipo": "lista", "lista_id": values.get("list", "")}
    if kind == "segmento":
        if not values.get("segment"):
            errors["segment"] = "Choose the segment"
        return {"tipo": "segmento", "segmento_id": values.get("segment", "")}
    if kind == "evento":
        if not EVENT.fullmatch(values.get("event", "")):
            errors["event"] = "Enter the event's name: letters, digits and _ . : - (like order.paid)"
        return {"tipo": "evento", "nome": values.get("event", "")}
    if kind == "formulario":
        return {"tipo": "formulario", "formulario_id": values.get("form") or None}
    if kind == "lead":
        return {"tipo": "lead"}
    return None


# --- a step's form -------------------------------------------------------------------------------------

STEP_FIELDS = ("channel", "content", "from", "subject", "text", "html", "template", "variables", "amount", "unit",
               "if_yes", "if_no")


def step_values(step: dict) -> dict[str, str]:
    """A saved step as the form's values."""
    values = {name: "" for name in STEP_FIELDS}
    values.update(channel="email", content="write", unit="minutes", amount="")
    kind = step.get("tipo")
    if kind == "enviar":
        values.update(channel=step.get("canal") or "email", content="template" if step.get("modelo") else "write",
                      template=step.get("modelo") or "", subject=step.get("assunto") or "",
                      text=step.get("texto") or "", html=step.get("html") or "", variables="\n".join(
                          f"{name}: {value}" for name, value in (step.get("variaveis") or {}).items()))
        values["from"] = step.get("de") or ""
    elif kind == "esperar":
        seconds = int(step.get("segundos") or 0)
        unit = next((name for name in ("days", "hours", "minutes") if seconds and seconds % UNITS[name] == 0), "seconds")
        values.update(amount=str(seconds // UNITS[unit]) if seconds else "", unit=unit)
    elif kind == "condicao":
        values.update(if_yes=step.get("se_sim") or "", if_no=step.get("se_nao") or "")
    return values


def _variables(text: str, errors: dict[str, str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition(":") if ":" in line else line.partition("=")
        if not sep or not name.strip():
            errors["variables"] = "Write one variable a line, as name: value"
            return {}
        found[name.strip()] = value.strip()
    return found


def step_of(kind: str, step_id: str, values: dict[str, str], rows: list[dict], match: str,
            errors: dict[str, str]) -> dict[str, Any]:
    """The step the form describes (``errors`` gets what cannot be sent at all, by field id)."""
    step: dict[str, Any] = {"id": step_id, "tipo": kind}
    if kind == "enviar":
        step["canal"] = values["channel"] if values["channel"] in CHANNELS else "email"
        if values["content"] == "template":
            if not values["template"]:
                errors["template"] = "Choose a template"
            step["modelo"] = values["template"]
            variables = _variables(values["variables"], errors)
            if variables:
                step["variaveis"] = variables
        else:
            for key, name in (("assunto", "subject"), ("texto", "text"), ("html", "html")):
                if values[name] and (name != "html" or step["canal"] == "email"):
                    step[key] = values[name]
        if step["canal"] == "email" and values["from"]:
            step["de"] = values["from"]
    elif kind == "esperar":
        amount = values["amount"]
        seconds = int(amount) * UNITS.get(values["unit"], 60) if amount.isdigit() else 0
        if not 1 <= seconds <= MAX_WAIT_SECONDS:
            errors["amount"] = "Enter a whole number: from 1 second to 90 days in all"
        step["segundos"] = seconds
    elif kind == "condicao":
        rules, problems = rules_form.rules_of(match, rows)
        errors.update(problems)
        step["regra"] = rules or {}
        step["se_sim"] = values["if_yes"] or None
        step["se_nao"] = values["if_no"] or None
    return step
