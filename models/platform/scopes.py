"""The scope catalog of API keys (spec "Authentication" 6) and the legacy scopes that grant nothing.

Which scopes a new key may hold is decided by app/platform/api_key/service.py (``validate_scopes``)."""

from __future__ import annotations

SCOPES: dict[str, str] = {
    "email:send": "POST /v1/emails/send, POST /v1/emails/batch, GET /v1/senders",
    "email:read": "GET /v1/emails, GET /v1/emails/{id}",
    "sms:send": "POST /v1/sms/send",
    "push:send": "POST /v1/push/send",
    "push:devices": "GET and POST /v1/push/devices",
    "whatsapp:send": "POST /v1/whatsapp/send",
    "account:read": "GET /v1/account/usage",
    "logs:read": "GET /v1/logs, GET /v1/logs/{id}",
    "mail:admin": "mail API: organizations, domains, domain verification, mailboxes",
    "forms:read": "read forms on the pages system",
    "forms:write": "create, edit, delete forms and send leads",
    "pages:read": "read pages, versions, draft, SEO, domains, media",
    "pages:write": "create and edit pages and media",
    "pages:publish": "publish and unpublish pages",
    # Additions to the contract's catalog (non-breaking): existing keys do not hold them.
    "webhooks:manage": "webhook endpoints, their deliveries and events: /v1/webhooks, /v1/events",
    "suppressions:read": "GET /v1/suppressions, GET /v1/suppressions/{id}",
    "suppressions:write": "DELETE /v1/suppressions/{id}",
    "templates:read": "GET /v1/templates, GET /v1/templates/{id}",
    "templates:write": "POST /v1/templates, PATCH and DELETE /v1/templates/{id}",
    "providers:manage": "the account's own providers per channel: /v1/providers (secrets write-only)",
}

# Held by keys made before 2026-10-07: they authenticate, but grant nothing beyond GET /v1/account.
LEGACY_SCOPES = frozenset({"full_access", "send_only", "emails:*"})

# What the demo key of a fresh `herald up` holds: everything needed to send and look at the result.
DEMO_SCOPES = ("email:send", "email:read", "sms:send", "push:send", "push:devices", "whatsapp:send",
               "account:read", "logs:read", "webhooks:manage", "templates:read", "suppressions:read")

# Scopes a publishable key (pk_live_, shipped inside browsers and apps, so public) may hold: reads of
# what is public anyway. Never message content (email:read), request logs (logs:read), devices or
# anything that sends.
PUBLISHABLE_SCOPES = ("forms:read", "pages:read")


def grants(held: list[str], required: str, *, publishable: bool = False) -> bool:
    """Whether a key holding ``held`` may call a route requiring ``required``.

    A key with no catalog scope at all, or with a legacy scope, is refused everywhere
    (the caller lets such keys reach only GET /v1/account). A publishable key is held to
    :data:`PUBLISHABLE_SCOPES` whatever it was given before that rule existed."""
    if not held or any(scope in LEGACY_SCOPES for scope in held):
        return False
    if publishable and required not in PUBLISHABLE_SCOPES:
        return False
    return required in held
