"""Request bodies of the two-factor routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class PasswordBody(SnakeBody):
    password: str


class CodeBody(SnakeBody):
    code: str


class TicketBody(SnakeBody):
    ticket: str
