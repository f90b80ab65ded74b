"""What a person reads instead of the APIs' identifiers: security events in words, and a user
agent as "Browser version on system"."""

from __future__ import annotations

import re

EVENTS = {
    "login": "Signed in", "login_failed": "A sign-in failed", "two_factor_failed": "A two-factor code was wrong",
    "logout": "Signed out", "session_revoked": "A session was signed out", "password_reset": "Password reset",
    "totp_enabled": "Authenticator app turned on", "email_factor_enabled": "E-mailed codes turned on",
    "two_factor_disabled": "Two-factor sign-in turned off", "recovery_codes_generated": "New recovery codes made",
    "email_added": "E-mail address added", "email_verified": "E-mail address verified",
    "email_removed": "E-mail address removed", "email_primary_changed": "Primary address changed",
    "email_changed": "E-mail address changed", "passkey_added": "Passkey added", "passkey_removed": "Passkey removed",
    "reauthenticated": "Confirmed it was you",
}
BROWSERS = (("Edg", "Edge"), ("OPR", "Opera"), ("Firefox", "Firefox"), ("HeadlessChrome", "Headless Chrome"),
            ("Chrome", "Chrome"), ("Version", "Safari"))
SYSTEMS = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iPadOS"), ("Windows", "Windows"),
           ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


def event(kind: str | None) -> str:
    return EVENTS.get(kind or "", (kind or "").replace("_", " ").capitalize())


def device(agent: str | None) -> str:
    """``Chrome 156 on Linux``; a program's own agent (``python-httpx/0.28``) as it is."""
    agent = agent or ""
    if not agent.startswith("Mozilla/"):
        return agent[:80] or "Unknown device"
    browser = next((f"{name} {found.group(1)}" for token, name in BROWSERS
                    if (found := re.search(rf"\b{token}/(\d+)", agent))), "A browser")
    system = next((name for token, name in SYSTEMS if token in agent), None)
    return f"{browser} on {system}" if system else browser
