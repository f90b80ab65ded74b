"""Request bodies of the two-factor routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class PasswordBody(SnakeBody):
    password: str
    """The person's password."""


class CodeBody(SnakeBody):
    code: str
    """A code from the authenticator app."""


class TicketBody(SnakeBody):
    ticket: str
    """The login's `ticket`."""
