"""A user as the identity API writes it."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from models.identity import User


def user_json(user: User) -> dict:
    return {
        "id": user.public_id, "email": user.email, "name": user.name,
        "email_verified": user.email_verified_at is not None,
        "email_verified_at": user.email_verified_at.isoformat() if user.email_verified_at else None,
        "created_at": user.created_at.isoformat(),
    }


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
USER_SHAPE = shape(id=described(STRING, "The user's id (`usr_...`)."),
                   email=described(STRING, "The primary e-mail address."),
                   name=described(NULLABLE_STRING, "The person's name."),
                   email_verified=described({"type": "boolean"}, "Whether the primary address is verified."),
                   email_verified_at=described({"type": ["string", "null"], "format": "date-time"},
                                               "When it was verified."),
                   created_at=described(TIMESTAMP, "When the user was made."))
USER = reply_of(user=described(USER_SHAPE, "The user."))
