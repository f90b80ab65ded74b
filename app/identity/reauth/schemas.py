"""Request bodies of the re-authentication routes."""

from __future__ import annotations

from typing import Any, Literal

from app.http.bodies import SnakeBody

Method = Literal["password", "totp", "email_otp", "passkey"]


class StartBody(SnakeBody):
    method: Literal["email_otp", "passkey"]
    """`email_otp` (a code by e-mail) or `passkey`."""
    email_id: str | None = None  # email_otp: one of the person's verified addresses
    """For `email_otp`: which of the person's verified addresses gets the code."""


class ReauthBody(SnakeBody):
    # Without ``method``: the password (and the app code when the account has one), as before.
    method: Method | None = None
    """`password`, `totp`, `email_otp` or `passkey`; without it, the password (and the app code when there is one)."""
    password: str | None = None
    """The password (`password`)."""
    code: str | None = None
    """The app's code (`totp`, or with the password), or the e-mailed code (`email_otp`)."""
    recovery_code: str | None = None
    """A recovery code, instead of the app's code with the password."""
    challenge_id: str | None = None
    """The `challenge_id` of `POST /v1/auth/reauth/start` (`email_otp`, `passkey`)."""
    credential: dict[str, Any] | None = None
    """The browser's `navigator.credentials.get` result (`passkey`)."""
