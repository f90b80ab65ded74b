"""Request bodies of the authorization routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class DecideBody(SnakeBody):
    sub: str
    tenant: str
    produto: str
    papel: str | None = None


class GrantBody(SnakeBody):
    user_id: str
    produto: str
    papel: str


class SubscriptionBody(SnakeBody):
    produto: str
    status: str
