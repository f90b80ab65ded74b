"""Sentry set-up shared by every process (logging is kit/logs.py)."""

from __future__ import annotations

from kit.settings import Settings

# What leaves for Sentry is the stack and the error, never data: local variables would carry API
# keys, message bodies and recipients (a handler's ``body``, a provider's ``content``), request
# bodies the same, and PII (addresses, cookies, users) stays out by default.
SENTRY_PRIVACY = {"include_local_variables": False, "send_default_pii": False, "max_request_body_size": "never"}


def init_sentry(settings: Settings, *integrations) -> bool:
    """Start Sentry when SENTRY_DSN is set; returns whether it did."""
    if not settings.sentry_dsn:
        return False
    import sentry_sdk

    sentry_sdk.init(dsn=settings.sentry_dsn, environment=settings.env, release=f"herald@{settings.version}",
                    integrations=list(integrations), **SENTRY_PRIVACY)
    return True
