"""Request bodies of the login routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class LoginBody(SnakeBody):
    email: str
    """The account's e-mail address."""
    password: str
    """Its password."""


class CheckBody(SnakeBody):
    ticket: str
    """The login's `ticket`."""
    code: str | None = None
    """A code from the app, or the one e-mailed."""
    recovery_code: str | None = None
    """A recovery code, instead of `code`."""
