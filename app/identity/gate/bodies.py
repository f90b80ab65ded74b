"""Strict snake_case bodies for the identity server (its surfaces' gate piece).

Structural problems (empty body, invalid JSON, not an object, an unknown field) are 400
``InvalidRequest`` naming the field; a missing or ill-typed field is 400 ``InvalidInput`` with
field -> reason in ``details`` (a NUL character, ``\\u0000``, is InvalidInput too). Bodies above 1 MiB
never reach here (the gate answers them, app/identity/gate/__init__.py).
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

import pydantic
from sanic import Request

from app.http.bodies import SnakeBody, holds_nul, validation_error
from app.identity import errors

__all__ = ["SnakeBody", "read_body", "read_optional_body"]

ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)


def read_body(request: Request, model: type[ModelT]) -> ModelT:
    raw = request.body or b""
    if not raw.strip():
        raise errors.InvalidRequest("A JSON object is required as the request body.")
    try:
        data: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise errors.InvalidRequest("The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise errors.InvalidRequest("The request body must be a JSON object.")
    if holds_nul(raw):  # PostgreSQL's text cannot hold it: refused here rather than failing in the database
        raise errors.InvalidInput("The request body holds a NUL character (\\u0000).",
                                  details={"body": "NUL character"})
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        problem = validation_error(exc)
        unknown = [field for field, reason in (problem.details or {}).items() if reason == "unknown field"]
        if unknown:
            raise errors.InvalidRequest(problem.message, details={name: "unknown field" for name in unknown}) from None
        raise errors.InvalidInput(problem.message, details=problem.details) from None


def read_optional_body(request: Request, model: type[ModelT]) -> ModelT:
    """Like :func:`read_body`, an empty body being the model's defaults."""
    return read_body(request, model) if (request.body or b"").strip() else model()
