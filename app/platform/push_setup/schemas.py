"""The body of POST /push/web/subscriptions (strict: an unknown field is a 400 naming it)."""

from __future__ import annotations

from app.http.bodies import Body


class SubscriptionRegistration(Body):
    site_key: str
    subscription: dict
