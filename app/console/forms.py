"""Reading a submitted form or a page's own query (how many times it refreshed itself), and turning
a platform refusal into the page's error messages."""

from __future__ import annotations

import json

from sanic import Request

from app.console.upstream import Answer


def polls(request: Request, most: int) -> int:
    """How many times this page has refreshed itself already (``poll`` in its htmx URL), at most ``most``."""
    raw = request.args.get("poll") or "0"
    return min(int(raw), most) if raw.isdigit() and len(raw) < 5 else most


def value(request: Request, name: str, *, strip: bool = True) -> str:
    raw = (request.form or {}).get(name) or ""
    return raw.strip() if strip else raw


def values(request: Request, *names: str) -> dict[str, str]:
    return {name: value(request, name) for name in names}


def code(request: Request, name: str = "code") -> str:
    """A code as people type or paste it: spaces and hyphens of no meaning taken out."""
    return "".join(ch for ch in value(request, name) if ch not in " -\t")


MAX_CREDENTIAL = 16_384  # an authenticator's answer is a few kilobytes; anything larger is not one


def passkey_answer(request: Request) -> dict | None:
    """The browser's WebAuthn answer that passkey.js put in the form's ``credential`` field."""
    raw = value(request, "credential")
    if not raw or len(raw) > MAX_CREDENTIAL:
        return None
    try:
        parsed = json.loads(raw)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def retry_phrase(answer: Answer) -> str:
    seconds = answer.headers.get("Retry-After") or answer.details.get("RetryAfterSeconds")
    try:
        wait = int(float(seconds))
    except (TypeError, ValueError):
        return "Wait a few minutes, then try again."
    if wait < 90:
        return f"Try again in {max(wait, 1)} seconds."
    return f"Try again in {round(wait / 60)} minutes."
