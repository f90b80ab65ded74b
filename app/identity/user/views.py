"""A user as the identity API writes it."""

from __future__ import annotations

from models.identity import User


def user_json(user: User) -> dict:
    return {
        "id": user.public_id, "email": user.email, "name": user.name,
        "email_verified": user.email_verified_at is not None,
        "email_verified_at": user.email_verified_at.isoformat() if user.email_verified_at else None,
        "created_at": user.created_at.isoformat(),
    }
