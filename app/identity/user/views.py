"""A user as the identity API writes it."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from models.identity import User


def user_json(user: User) -> dict:
    return {
        "id": user.public_id, "email": user.email, "name": user.name,
        "email_verified": user.email_verified_at is not None,
        "email_verified_at": user.email_verified_at.isoformat() if user.email_verified_at else None,
        "created_at": user.created_at.isoformat(),
    }


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
USER_SHAPE = shape(id=STRING, email=STRING, name=NULLABLE_STRING, email_verified={"type": "boolean"},
                   email_verified_at={"type": ["string", "null"], "format": "date-time"}, created_at=TIMESTAMP)
USER = reply_of(user=USER_SHAPE)
