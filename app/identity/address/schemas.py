"""Request bodies of the e-mail address routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class AddressBody(SnakeBody):
    email: str
    """The address to add; its verification link is e-mailed to it."""
