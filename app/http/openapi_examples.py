"""Examples of success answers in the OpenAPI documents (app/http/openapi.py).

A route may give its own: a pydantic model's ``json_schema_extra={"examples": [...]}``, an
``"example"`` in a JSON Schema it declares, or ``Schema(schema, example=...)``. Where it gives none,
:func:`example_of` makes one from the answer's schema, so every 2xx answer of every document
carries an example that validates against its schema (tests/http/test_openapi.py proves it).
Values are chosen by the property's name where that says what it holds (``MessageId``,
``RequestId``, ``CreatedAt``, ``email`` ...), so the examples read like real answers.
"""

from __future__ import annotations

import re
from re import _constants as sre
from re import _parser as sre_parse
from typing import Any

MAX_DEPTH = 8
WHEN = "2026-11-23T10:15:00Z"
HEX = "8f14e45fceea167a5a36dedd"

# A public id's prefix by the noun its property names (the prefixes the models issue).
ID_PREFIXES = {"request": "req", "message": "msg", "tenant": "acc", "account": "acc", "user": "usr", "key": "key",
               "webhook": "wh", "delivery": "dlv", "event": "evt", "session": "ses", "contact": "ctt",
               "list": "lst", "page": "pag", "form": "frm", "media": "med", "midia": "med", "pixel": "px",
               "device": "dev", "template": "tpl", "client": "cli", "journey": "jrn", "segment": "seg",
               "invitation": "inv", "domain": "dom", "redirect": "rdr", "experiment": "exp", "alert": "alr",
               "pagina": "pag", "contato": "ctt", "lista": "lst", "formulario": "frm", "jornada": "jrn",
               "segmento": "seg", "alerta": "alr", "destino": "dst", "membro": "usr", "convite": "inv"}
# Whole-name values: what a field of that name holds in a real answer.
NAMED: dict[str, Any] = {
    "email": "ana@example.com", "source": "ana@example.com", "from": "+14155550100", "to": "+14155550123",
    "phone": "+14155550123", "telefone": "+14155550123", "name": "Ana Lima", "nome": "Ana Lima",
    "subject": "Your order has shipped", "url": "https://example.com/hooks/herald", "status": "ok",
    "domain": "example.com", "dominio": "example.com", "slug": "black-friday", "locale": "pt-BR",
    "token_type": "Bearer", "scope": "openid email profile", "country": "BR", "pais": "BR",
}
TRUE_NAMES = re.compile(r"(?i)verified|active|enabled|allowed|ok|valid|published|logged|accepted|ready")
STRING_CANDIDATES = ("example", "ana@example.com", "https://example.com/", "example.com", "+14155550123",
                     f"msg_{HEX}", HEX, "0123456789", "sk_test_" + HEX, "ABC-123", "a", "2026-11-23")


def _words(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def _named_string(name: str | None) -> str | None:
    if not name:
        return None
    words = _words(name)
    if words in NAMED:
        return NAMED[words]
    if words.endswith("_at") or words.endswith("_em") or words in ("at", "timestamp", "expires", "created"):
        return WHEN
    if words == "id" or words.endswith("_id"):
        noun = words[:-3].rsplit("_", 1)[-1] if words != "id" else ""
        return f"{ID_PREFIXES.get(noun, 'id')}_{HEX}"
    if words.endswith("email") or words.endswith("address"):
        return "ana@example.com"
    if words.endswith("url") or words.endswith("uri"):
        return "https://example.com/"
    return None


def _from_pattern(pattern: str) -> str | None:
    """The shortest plain string the regular expression matches (None when it cannot tell)."""
    try:
        return _emit(sre_parse.parse(pattern))
    except Exception:  # noqa: BLE001 - an unusual pattern: the caller tries other candidates
        return None


def _emit(parsed) -> str:
    out = []
    for op, arg in parsed:
        if op == sre.LITERAL:
            out.append(chr(arg))
        elif op == sre.NOT_LITERAL:
            out.append("a" if chr(arg) != "a" else "b")
        elif op == sre.ANY:
            out.append("a")
        elif op == sre.IN:
            out.append(_one_of(arg))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
            low, _high, item = arg
            out.append(_emit(item) * max(low, 1))
        elif op == sre.SUBPATTERN:
            out.append(_emit(arg[-1]))
        elif op == sre.BRANCH:
            out.append(_emit(arg[1][0]))
        elif op == sre.AT:
            continue
        else:
            raise ValueError(op)
    return "".join(out)


def _one_of(items) -> str:
    for op, arg in items:
        if op == sre.NEGATE:
            return "~" if not any(o == sre.LITERAL and a == ord("~") for o, a in items) else "^"
        if op == sre.LITERAL:
            return chr(arg)
        if op == sre.RANGE:
            return chr(arg[0])
        if op == sre.CATEGORY:
            return {sre.CATEGORY_DIGIT: "0", sre.CATEGORY_WORD: "a", sre.CATEGORY_SPACE: " "}.get(arg, "a")
    raise ValueError(items)


def _string(schema: dict[str, Any], name: str | None) -> str:
    fmt = schema.get("format")
    candidates: list[str] = []
    if fmt == "date-time":
        candidates.append(WHEN)
    elif fmt == "date":
        candidates.append(WHEN[:10])
    elif fmt == "email":
        candidates.append("ana@example.com")
    elif fmt in ("uri", "url", "iri"):
        candidates.append("https://example.com/")
    elif fmt == "uuid":
        candidates.append("0f8fad5b-d9cb-469f-a165-70867728950e")
    elif fmt == "binary":
        candidates.append("")
    named = _named_string(name)
    if named is not None:
        candidates.append(named)
    candidates += [(name or "example").lower(), *STRING_CANDIDATES]
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    pattern = schema.get("pattern")
    if pattern is not None:
        made = _from_pattern(pattern)
        candidates += [made] if made is not None else []
    for value in candidates:
        if high is not None and len(value) > high:
            value = value[:high]
        if len(value) < low:
            value = value + "x" * (low - len(value))
        if pattern is None or re.search(pattern, value):
            return value
    return candidates[0]


def _number(schema: dict[str, Any], integer: bool) -> int | float:
    value: float = 1 if integer else 1.5
    if "minimum" in schema:
        value = max(value, schema["minimum"])
    if "exclusiveMinimum" in schema:
        value = max(value, schema["exclusiveMinimum"] + (1 if integer else 0.5))
    if "maximum" in schema:
        value = min(value, schema["maximum"])
    if "exclusiveMaximum" in schema:
        value = min(value, schema["exclusiveMaximum"] - (1 if integer else 0.5))
    return int(value) if integer else value


def _merge(parts: list[Any]) -> Any:
    merged: dict[str, Any] = {}
    for part in parts:
        if not isinstance(part, dict):
            return part
        merged.update(part)
    return merged


def example_of(schema: Any, schemas: dict[str, Any], name: str | None = None, depth: int = 0) -> Any:
    """A value that the JSON Schema ``schema`` accepts (``schemas``: the document's components)."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return None if schema is False else {}
    if "example" in schema:
        return schema["example"]
    if schema.get("examples"):
        return schema["examples"][0]
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    if "$ref" in schema:
        return example_of(schemas.get(schema["$ref"].rsplit("/", 1)[-1], {}), schemas, name, depth + 1)
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    if "allOf" in schema:
        return _merge([example_of(part, schemas, name, depth + 1) for part in schema["allOf"]])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [option for option in schema[key] if option.get("type") != "null"] or schema[key]
            return example_of(options[0], schemas, name, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((each for each in kind if each != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema or "additionalProperties" in schema else (
            "array" if "items" in schema else None)
    if kind == "object":
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        # An object's own "Id" is named by the object: Pagina.Id is a page's id (pag_...).
        value = {key: example_of(sub, schemas, f"{name}_id" if key.lower() == "id" and name else key, depth + 1)
                 for key, sub in properties.items() if key in required or depth < 4}
        for key in sorted(required - set(properties)):  # required, described no further
            value[key] = _named_string(key) or "example"
        extra = schema.get("additionalProperties")
        if not properties and isinstance(extra, dict) and extra:
            value["key"] = example_of(extra, schemas, None, depth + 1)
        return value
    if kind == "array":
        count = max(1, schema.get("minItems", 1))
        if schema.get("maxItems") is not None:
            count = min(count, schema["maxItems"])
        item = name[:-1] if name and name.endswith("s") else name  # MessageIds: each a MessageId
        return [example_of(schema.get("items", {}), schemas, item, depth + 1) for _ in range(count)]
    if kind == "string":
        return _string(schema, name)
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer")
    if kind == "boolean":
        return bool(name) and bool(TRUE_NAMES.search(name))
    if kind == "null":
        return None
    return _named_string(name) or "example"
