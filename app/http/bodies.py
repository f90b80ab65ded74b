"""Strict JSON bodies.

A route reads its body with ``parse_body(request, Model)``. The body must be a JSON object;
invalid JSON is 400 InvalidJson; an unknown field is 400 ValidationError whose message names
the field; every invalid field appears in ``Details`` as field -> reason. Models inherit
:class:`Body` (PascalCase keys on the wire, snake_case attributes in Python) or
:class:`SnakeBody` (snake_case on the wire, for the identity server and the request logs).
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

import pydantic
from pydantic import AliasGenerator, BaseModel, ConfigDict
from pydantic.alias_generators import to_pascal
from sanic import Request

from app.http import errors


class Body(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        alias_generator=AliasGenerator(validation_alias=to_pascal, serialization_alias=to_pascal),
    )


class SnakeBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


ModelT = TypeVar("ModelT", bound=BaseModel)


def load_json(request: Request, *, max_bytes: int | None = None, invalid: type[errors.BadRequest] = errors.InvalidJson) -> Any:
    raw = request.body or b""
    if max_bytes is not None and len(raw) > max_bytes:
        raise errors.PayloadTooLarge(max_bytes)
    if not raw.strip():
        raise errors.ValidationError("A JSON object is required as the request body.",
                                     details={"body": "required"})
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise invalid(f"The request body is not valid JSON: {exc}.") from None


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
        field = ".".join(str(part) for part in problem["loc"]) or "body"
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
