"""Request bodies of the password reset routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class ResetRequestBody(SnakeBody):
    email: str
    """The account's address (primary, or a verified recovery address)."""


class ResetConfirmBody(SnakeBody):
    token: str
    """The reset link's token."""
    password: str
    """The new password."""
    code: str | None = None
    """With an account's second factor: a code from the app, or the one e-mailed for this reset."""
    recovery_code: str | None = None
    """A recovery code, instead of `code`."""


class ResetCodeBody(SnakeBody):
    token: str
    """The reset link's token."""
