"""How the OpenAPI documents name and group operations (app/http/openapi.py): a summary from the
handler's docstring, and tags by the noun a path names, the public API first and the meta routes last."""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'])")
SUMMARY_LIMIT = 120


def summary_of(doc: str) -> str:
    """An operation's summary: the first sentence of its handler's docstring, on one line, at most
    ``SUMMARY_LIMIT`` characters (cut at a word, for the rare first sentence that runs longer)."""
    paragraph = " ".join(doc.split("\n\n")[0].split())
    sentence = _SENTENCE_END.split(paragraph, maxsplit=1)[0].rstrip(".")
    if len(sentence) <= SUMMARY_LIMIT:
        return sentence
    return sentence[:SUMMARY_LIMIT - 1].rsplit(" ", 1)[0] + "\u2026"


def named(handler: str) -> str:
    """The summary of a handler without a docstring: its name read as words (``list_entries`` ->
    "List entries"); every /v1 and meta handler has a docstring (tests/http/test_openapi.py)."""
    return handler.replace("_", " ").strip().capitalize()


META = {"", "healthz", "readyz", "version", "metrics", "openapi.json", "docs"}
# (order, description) of each family of tags: the public API first, the meta routes last.
TAG_GROUPS = {
    "public": (0, "The public API, with an API key."),
    "dashboard": (1, "The dashboard's API, with a person's session."),
    "operator": (2, "Staff only: the operators' routes."),
    "other": (3, None),
    "internal": (4, "Between Herald's systems, with the service credential."),
    "meta": (5, "Health, readiness, version, metrics and this reference."),
}


NOUNS = {"a": "Accounts", "sms": "SMS", "whatsapp": "WhatsApp", "2fa": "Two-factor", "ia": "AI", "tls": "TLS",
         ".well-known": "Discovery"}
VISITORS = "Visitors"  # what a system serves to anyone: a page by its slug, a form's post, its scripts


def _noun(segment: str) -> str:
    if segment in NOUNS:
        return NOUNS[segment]
    words = segment.replace("-", " ").replace("_", " ").capitalize()
    return "API" + words[3:] if words.lower().startswith("api ") else words


def _other(parts: list[str]) -> str:
    # A short prefix and the id after it (the console's /a/{account_id}/...) name no noun: the next does.
    if len(parts) > 2 and len(parts[0]) <= 1 and parts[1].startswith("{"):
        parts = parts[2:]
    head = parts[0]
    if head not in NOUNS and (len(head) <= 1 or head.startswith("{") or "." in head):
        return VISITORS
    return _noun(head)


def _tag(path: str) -> tuple[str, str]:
    """(tag, family) of a path: grouped by the noun it names."""
    parts = path.strip("/").split("/")
    if parts[0] in META:
        return "Meta", "meta"
    if parts[0] == "v1" and len(parts) > 1:
        return _noun(parts[1]), "public"
    if parts[0] == "api" and len(parts) > 2 and parts[1] == "admin":
        return f"Operator: {parts[2].replace('-', ' ')}", "operator"
    if parts[0] == "api" and len(parts) > 1:
        return f"{_noun(parts[1])} (dashboard)", "dashboard"
    if parts[0] == "internal":
        return f"Internal: {parts[2] if len(parts) > 2 else 'other'}", "internal"
    if parts[0] == "callbacks":
        return "Provider callbacks", "other"
    return _other(parts), "other"


def tag_of(path: str) -> str:
    return _tag(path)[0]


def ordered_tags(paths: list[str]) -> list[dict[str, str]]:
    """The document's ``tags``: the public API's nouns first, then the dashboard's, the operators',
    the rest, the internal routes, and the meta routes last; alphabetical within each family."""
    families: dict[str, str] = {}
    for name, family in map(_tag, paths):  # a noun in two families (/v1/push, /push/web) sits in the first
        if name not in families or TAG_GROUPS[family][0] < TAG_GROUPS[families[name]][0]:
            families[name] = family
    tags = []
    for name, family in sorted(families.items(), key=lambda item: (TAG_GROUPS[item[1]][0], item[0])):
        description = TAG_GROUPS[family][1]
        tags.append({"name": name, **({"description": description} if description else {})})
    return tags
