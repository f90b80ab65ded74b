"""Strict snake_case bodies for the identity server.

Structural problems (empty body, invalid JSON, not an object, an unknown field) are 400
``InvalidRequest`` naming the field; a missing or ill-typed field is 400 ``InvalidInput`` with
field -> reason in ``details``. Bodies above 1 MiB never reach here (see ``create_app``).
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

import pydantic
from sanic import Request

from app.http.bodies import SnakeBody, validation_error
from app.identity import errors

__all__ = ["SnakeBody", "read_body", "EMAIL", "normalize_email", "check_email"]

ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)

EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$")


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
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        problem = validation_error(exc)
        unknown = [field for field, reason in (problem.details or {}).items() if reason == "unknown field"]
        if unknown:
            raise errors.InvalidRequest(problem.message, details={name: "unknown field" for name in unknown}) from None
        raise errors.InvalidInput(problem.message, details=problem.details) from None


def normalize_email(email: str) -> str:
    return email.strip().casefold()


def check_email(email: str, field: str = "email") -> str:
    email = email.strip()
    if len(email) > 320 or not EMAIL.match(email):
        raise errors.InvalidInput(f"Field {field!r}: not a valid e-mail address.", details={field: "invalid e-mail"})
    return email
