"""Request bodies of the re-authentication routes."""

from __future__ import annotations

from typing import Any, Literal

from app.http.bodies import SnakeBody

Method = Literal["password", "totp", "email_otp", "passkey"]


class StartBody(SnakeBody):
    method: Literal["email_otp", "passkey"]
    email_id: str | None = None  # email_otp: one of the person's verified addresses


class ReauthBody(SnakeBody):
    # Without ``method``: the password (and the app code when the account has one), as before.
    method: Method | None = None
    password: str | None = None
    code: str | None = None
    recovery_code: str | None = None
    challenge_id: str | None = None
    credential: dict[str, Any] | None = None
