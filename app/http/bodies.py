"""Strict JSON bodies.

A route reads its body with ``parse_body(request, Model)``. The body must be a JSON object;
invalid JSON is 400 InvalidJson; a NUL character (``\\u0000``, which PostgreSQL cannot store) is
400 ValidationError; an unknown field is 400 ValidationError whose message names
the field; every invalid field appears in ``Details`` as field -> reason, named as the request
spells it (the wire alias, dotted through nested objects: ``Notification.Body``). A rule over
several fields (a model validator) names the field it is about by raising :class:`FieldProblem`;
a plain ``ValueError`` there is about the whole body (``Details.body``). Models inherit
:class:`Body` (PascalCase keys on the wire, snake_case attributes in Python) or
:class:`SnakeBody` (snake_case on the wire, for the identity server and the request logs).

JSON nested deeper than :data:`MAX_DEPTH` levels is refused with 400 before it is parsed:
everything downstream (the parser, validation, hashing, redaction, ``json.dumps``) recurses per
level, and a body of a few kilobytes of ``[`` would otherwise end in a RecursionError.
"""

from __future__ import annotations

import json
from array import array
from itertools import accumulate
from typing import Any, TypeVar

import pydantic
from pydantic import AliasGenerator, BaseModel, ConfigDict
from pydantic.alias_generators import to_pascal
from sanic import Request

from app.http import errors


# A field's docstring (the string under it) is its description in the OpenAPI documents.
class Body(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        alias_generator=AliasGenerator(validation_alias=to_pascal, serialization_alias=to_pascal),
        use_attribute_docstrings=True,
    )


class SnakeBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True)


ModelT = TypeVar("ModelT", bound=BaseModel)


def example(body: dict[str, Any]) -> ConfigDict:
    """A body model's request example in the OpenAPI documents: ``model_config = example({...})``
    (merged with the base's config). It must be a body the product accepts: tests/http/
    test_request_examples.py sends every one to the running system."""
    return ConfigDict(json_schema_extra={"examples": [body]})


class FieldProblem(ValueError):
    """Raised by a model validator: ``field`` is the field the rule is about, as the request spells
    it (``"Body"``, not ``body``), so ``Details`` names it and not the whole body."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field

# Far beyond any body of the contract (a batch item is 6 levels deep, free-form Data a few more).
MAX_DEPTH = 32

_NOT_STRUCTURE = bytes(range(256)).translate(None, b'[]{}"')
_AS_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 on open, -1 (as a signed byte) on close


def nested_deeper_than(raw: bytes | str, limit: int = MAX_DEPTH) -> bool:
    """Whether the arrays and objects of a JSON text nest deeper than ``limit``, found without
    parsing or recursion.

    Linear and done in C (bytes methods, ``accumulate``): escaped backslashes and quotes are
    dropped, then everything but brackets and quotes, then the strings (between quote pairs); what
    is left is brackets only, and the depth is the highest running sum of +1 and -1. For invalid
    JSON the answer is approximate; the parser refuses that text anyway."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    structure = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    if b'"' in structure:
        structure = b"".join(structure.split(b'"')[::2])
    return bool(structure) and max(accumulate(array("b", structure.translate(_AS_STEPS)))) > limit


def holds_nul(raw: bytes | str) -> bool:
    """Whether a JSON text has a ``\\u0000`` in a string: PostgreSQL's text and jsonb cannot hold
    one, so such a body is refused with 400 before it reaches a column (an escaped backslash
    before ``u0000`` is text, not a NUL, and is dropped first)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    return b"\\u0000" in data and b"\\u0000" in data.replace(b"\\\\", b"")


def _nul() -> errors.ValidationError:
    return errors.ValidationError("The request body holds a NUL character (\\u0000), which cannot be stored.",
                                  details={"body": "holds a NUL character"})


def _too_deep() -> errors.ValidationError:
    return errors.ValidationError(f"The request body nests arrays and objects deeper than {MAX_DEPTH} levels.",
                                  details={"body": f"nested deeper than {MAX_DEPTH} levels"})


def parse_json(raw: bytes | str, *, invalid: type[errors.BadRequest] = errors.InvalidJson) -> Any:
    """JSON text to Python, or 400: ``invalid`` for bad JSON, ValidationError when nested too deep."""
    if nested_deeper_than(raw):
        raise _too_deep()
    if holds_nul(raw):
        raise _nul()
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise invalid(f"The request body is not valid JSON: {exc}.") from None
    except RecursionError:  # unreachable within MAX_DEPTH; kept so that no parser change can make it a 500
        raise _too_deep() from None


def load_json(request: Request, *, max_bytes: int | None = None, invalid: type[errors.BadRequest] = errors.InvalidJson) -> Any:
    raw = request.body or b""
    if max_bytes is not None and len(raw) > max_bytes:
        raise errors.PayloadTooLarge(max_bytes)
    if not raw.strip():
        raise errors.ValidationError("A JSON object is required as the request body.",
                                     details={"body": "required"})
    return parse_json(raw, invalid=invalid)


def parse_body(request: Request, model: type[ModelT], *, max_bytes: int | None = None) -> ModelT:
    return validate(load_json(request, max_bytes=max_bytes), model)


def validate(data: Any, model: type[ModelT]) -> ModelT:
    if not isinstance(data, dict):
        raise errors.ValidationError("The request body must be a JSON object.", details={"body": "must be an object"})
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        raise validation_error(exc) from None


def validation_error(exc: pydantic.ValidationError) -> errors.ValidationError:
    details: dict[str, str] = {}
    unknown: list[str] = []
    for problem in exc.errors(include_url=False):
        where = list(problem["loc"])  # aliases: validation reports the name the request used
        cause = (problem.get("ctx") or {}).get("error")
        if isinstance(cause, FieldProblem):
            where.append(cause.field)
        field = ".".join(str(part) for part in where) or "body"
        if problem["type"] == "extra_forbidden":
            unknown.append(field)
            details[field] = "unknown field"
        else:
            details.setdefault(field, _reason(problem))
    if unknown:
        message = f"Unknown field {unknown[0]!r} in the request body."
        if len(unknown) > 1:
            message = f"Unknown fields in the request body: {', '.join(repr(name) for name in unknown)}."
    else:
        first = next(iter(details))
        message = f"Field {first!r}: {details[first]}."
    return errors.ValidationError(message, details=details)


def _reason(problem: dict) -> str:
    if problem["type"] == "missing":
        return "required"
    message = problem.get("msg", "invalid")
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    return message[0].lower() + message[1:] if message else "invalid"
