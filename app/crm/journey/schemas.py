"""Journey bodies and the shape checks of triggers and steps.

A journey is written whole on create (``POST``) and in part on edit (``PATCH``):

    {"nome": str, "gatilho": trigger|null, "passos": [step, ...], "fuso_horario": "America/Sao_Paulo",
     "horario_silencioso": {"inicio": "22:00", "fim": "08:00"}|null, "permite_reentrada": bool,
     "modo": "teste"|"real"}

Triggers (models/crm/journey.py spells the same kinds):

    {"tipo": "lista", "lista_id": "lst_..."}         {"tipo": "segmento", "segmento_id": "seg_..."}
    {"tipo": "formulario", "formulario_id": str|null} {"tipo": "lead"}
    {"tipo": "evento", "nome": "<event name>"}

Steps (``id`` optional: ``passo_<n>`` by position when absent; unique in the journey):

    {"tipo": "enviar", "canal": "email"|"sms"|"push"|"whatsapp", "de"?, "assunto"?, "texto"?, "html"?,
     "modelo"?: "<platform template slug>", "variaveis"?: {...}}
    {"tipo": "esperar", "segundos": 1..7776000}
    {"tipo": "condicao", "regra": <segment rule>, "se_sim": "<step id>"|null, "se_nao": "<step id>"|null}
    {"tipo": "sair"}

A shape that cannot be a journey (unknown keys, wrong types, an unknown time zone) is refused when
written (422 naming the field). What a journey still lacks to run (a trigger, a step, a list that
was deleted, a jump backwards, a send with no content...) is listed as ``problemas`` and refused
only when it is turned on (app/crm/journey/service.py).
"""

from __future__ import annotations

import re
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field

from app.http import errors
from app.http.bodies import SnakeBody, example

MAX_BODY_BYTES = 128 * 1024
MAX_STEPS = 50
MAX_WAIT_SECONDS = 90 * 86400
STEP_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
CLOCK = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")
EVENT = re.compile(r"[A-Za-z0-9_.:-]{1,100}")
CHANNELS = ("email", "sms", "push", "whatsapp")
TRIGGERS = {"lista": {"lista_id"}, "segmento": {"segmento_id"}, "formulario": {"formulario_id"}, "lead": set(),
            "evento": {"nome"}}
STEP_KEYS = {"enviar": {"canal", "de", "assunto", "texto", "html", "modelo", "variaveis"},
             "esperar": {"segundos"}, "condicao": {"regra", "se_sim", "se_nao"}, "sair": set()}


class JourneyWrite(SnakeBody):
    model_config = example({
        "nome": "Welcome",
        "gatilho": {"tipo": "evento", "nome": "signed_up"},
        "passos": [{"tipo": "enviar", "canal": "email", "de": "Acme <hello@sandbox.herald.test>",
                    "assunto": "Welcome to Acme", "texto": "Glad to have you."},
                   {"tipo": "esperar", "segundos": 86400}, {"tipo": "sair"}],
        "fuso_horario": "America/Sao_Paulo",
        "horario_silencioso": {"inicio": "22:00", "fim": "08:00"},
    })
    nome: str = Field(..., min_length=1, max_length=200)
    """The journey's name."""
    gatilho: dict[str, Any] | None = None
    """What enrolls a contact, by `tipo`: `lista`, `segmento`, `formulario`, `lead` or `evento`; null for none yet."""
    passos: list[Any] = Field(default_factory=list, max_length=MAX_STEPS)
    """The steps in order, by `tipo`: `enviar`, `esperar`, `condicao` or `sair` (at most 50; docs/crm.md, "Journeys")."""
    fuso_horario: str = Field("UTC", max_length=64)
    """The IANA time zone quiet hours are read in (`America/Sao_Paulo`)."""
    horario_silencioso: dict[str, Any] | None = None
    """`{"inicio": "HH:MM", "fim": "HH:MM"}`: sends wait until it ends; null for none."""
    permite_reentrada: bool = False
    """Whether a contact who left may enter again."""
    modo: Literal["teste", "real"] = "teste"
    """`teste` (sends go out in the platform's test mode) or `real` (live sends)."""


class JourneyPatch(SnakeBody):
    model_config = example({"nome": "Welcome (v2)", "permite_reentrada": True})
    nome: str | None = Field(None, min_length=1, max_length=200)
    """The journey's name."""
    gatilho: dict[str, Any] | None = None
    """What enrolls a contact, by `tipo`: `lista`, `segmento`, `formulario`, `lead` or `evento`; null for none yet."""
    passos: list[Any] | None = Field(None, max_length=MAX_STEPS)
    """The steps in order, by `tipo`: `enviar`, `esperar`, `condicao` or `sair` (at most 50; docs/crm.md, "Journeys")."""
    fuso_horario: str | None = Field(None, max_length=64)
    """The IANA time zone quiet hours are read in (`America/Sao_Paulo`)."""
    horario_silencioso: dict[str, Any] | None = None
    """`{"inicio": "HH:MM", "fim": "HH:MM"}`: sends wait until it ends; null for none."""
    permite_reentrada: bool | None = None
    """Whether a contact who left may enter again."""
    modo: Literal["teste", "real"] | None = None
    """`teste` (sends go out in the platform's test mode) or `real` (live sends)."""

    def changes(self) -> dict[str, Any]:
        changes = self.model_dump(exclude_unset=True)
        if not changes:
            raise errors.Unprocessable("Give at least one field to change.", details={"body": "empty"})
        for name in ("nome", "passos", "fuso_horario", "permite_reentrada", "modo"):
            if name in changes and changes[name] is None:
                raise errors.ValidationError(f"Field {name!r} cannot be null.", details={name: "cannot be null"})
        return changes


class Activation(SnakeBody):
    ativa: bool
    """True turns the journey on (revalidated first), false turns it off (its enrollments pause where they are)."""


def _bad(field: str, reason: str) -> errors.Unprocessable:
    return errors.Unprocessable(f"{field}: {reason}.", details={field: reason})


def _text(step: dict, key: str, path: str, limit: int) -> None:
    value = step.get(key)
    if value is not None and (not isinstance(value, str) or len(value) > limit):
        raise _bad(f"{path}.{key}", f"a text of at most {limit} characters")


def check_timezone(value: str) -> str:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise _bad("fuso_horario", "an IANA time zone such as America/Sao_Paulo") from None
    return value


def check_quiet_hours(value: dict[str, Any] | None) -> dict[str, str] | None:
    if value is None:
        return None
    if set(value) != {"inicio", "fim"}:
        raise _bad("horario_silencioso", "an object with inicio and fim (HH:MM)")
    for key in ("inicio", "fim"):
        if not isinstance(value[key], str) or not CLOCK.fullmatch(value[key]):
            raise _bad(f"horario_silencioso.{key}", "a time of day as HH:MM")
    if value["inicio"] == value["fim"]:
        raise _bad("horario_silencioso", "inicio and fim differ")
    return {"inicio": value["inicio"], "fim": value["fim"]}


def check_trigger(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is None:
        return None
    kind = value.get("tipo")
    if kind not in TRIGGERS:
        raise _bad("gatilho.tipo", f"one of {', '.join(TRIGGERS)}")
    extra = sorted(set(value) - TRIGGERS[kind] - {"tipo"})
    if extra:
        raise _bad(f"gatilho.{extra[0]}", f"not taken by a {kind} trigger")
    for key in TRIGGERS[kind]:
        item = value.get(key)
        if key == "formulario_id":
            if item is not None and (not isinstance(item, str) or not 1 <= len(item) <= 64):
                raise _bad("gatilho.formulario_id", "a form id, or null for any form")
        elif not isinstance(item, str) or not item:
            raise _bad(f"gatilho.{key}", "required text")
        elif key == "nome" and not EVENT.fullmatch(item):
            raise _bad("gatilho.nome", "an event name")
    return dict(value)


def check_steps(steps: list[Any]) -> list[dict[str, Any]]:
    """The steps with their ids; 422 for a shape that cannot be a step."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, raw in enumerate(steps):
        path = f"passos[{index}]"
        if not isinstance(raw, dict):
            raise _bad(path, "a step is a JSON object")
        step = dict(raw)
        kind = step.get("tipo")
        if kind not in STEP_KEYS:
            raise _bad(f"{path}.tipo", f"one of {', '.join(STEP_KEYS)}")
        extra = sorted(set(step) - STEP_KEYS[kind] - {"tipo", "id"})
        if extra:
            raise _bad(f"{path}.{extra[0]}", f"not taken by a {kind} step")
        step_id = step.get("id", f"passo_{index + 1}")
        if not isinstance(step_id, str) or not STEP_ID.fullmatch(step_id):
            raise _bad(f"{path}.id", "1 to 64 letters, digits, '_' or '-'")
        if step_id in seen:
            raise _bad(f"{path}.id", f"{step_id!r} is already the id of another step")
        seen.add(step_id)
        step["id"] = step_id
        if kind == "enviar":
            if step.get("canal") not in CHANNELS:
                raise _bad(f"{path}.canal", f"one of {', '.join(CHANNELS)}")
            for key, limit in (("de", 320), ("assunto", 998), ("texto", 100_000), ("html", 100_000),
                               ("modelo", 64)):
                _text(step, key, path, limit)
            if step.get("variaveis") is not None and not isinstance(step["variaveis"], dict):
                raise _bad(f"{path}.variaveis", "an object")
        elif kind == "esperar":
            seconds = step.get("segundos")
            if isinstance(seconds, bool) or not isinstance(seconds, int) or not 1 <= seconds <= MAX_WAIT_SECONDS:
                raise _bad(f"{path}.segundos", f"an integer from 1 to {MAX_WAIT_SECONDS}")
        elif kind == "condicao":
            if not isinstance(step.get("regra"), dict):
                raise _bad(f"{path}.regra", "a segment rule (an object)")
            for key in ("se_sim", "se_nao"):
                if step.get(key) is not None and not isinstance(step[key], str):
                    raise _bad(f"{path}.{key}", "a step id or null (the next step)")
        out.append(step)
    return out
