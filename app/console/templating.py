"""Pages and fragments from Jinja2 templates (autoescape on), and the console's static files.

Templates live beside their routes: ``app/console/<noun>/templates/<page>.html`` is
``<noun>/<page>.html``; the shared layout and macros are in ``app/console/templates/``
(``base.html``, ``components/*.html``). A page extends ``base.html``; its htmx targets are
fragments of their own (``<noun>/_<part>.html``), so one route answers the whole page or, to an
htmx request (``HX-Request: true``, and not a history restore), only the fragment, with
``Vary: HX-Request``.

Static files (``app/console/static/``: one stylesheet, a little script, vendored htmx) are read
once at start and served at content-hashed URLs (``/static/<hash>/css/console.css``) with a year's
cache: no build step, no stale file after an upgrade.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, StrictUndefined, select_autoescape
from markupsafe import Markup
from sanic import Blueprint, HTTPResponse, Request
from sanic.response import html, raw

from app.console import guard, qr, words

HERE = Path(__file__).resolve().parent
NOUNS = ("signin", "signup", "verification", "password", "account", "team", "api_key", "profile", "invitation",
         "message", "compose", "template", "overview", "domain", "provider", "webhook", "request_log", "push",
         "contact", "contact_list", "contact_import", "segment", "staff", "support", "page", "site_domain")
STATIC = HERE / "static"


def _static_files() -> dict[str, tuple[bytes, str, str]]:
    files = {}
    for path in sorted(STATIC.rglob("*")):
        if path.is_file() and path.suffix in (".css", ".js", ".svg", ".png", ".ico"):
            content = path.read_bytes()
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind.endswith("javascript"):
                kind += "; charset=utf-8"
            files[path.relative_to(STATIC).as_posix()] = (content, kind, hashlib.sha256(content).hexdigest()[:12])
    return files


FILES = _static_files()


def static_url(name: str) -> str:
    return f"/static/{FILES[name][2]}/{name}"


def _relative(value: str | None) -> str:
    """An ISO time as a short relative phrase (the ISO value goes in the element's title)."""
    if not value:
        return ""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    seconds = (datetime.now(timezone.utc) - moment).total_seconds()
    future, seconds = seconds < 0, abs(seconds)
    for size, unit in ((86400 * 365, "year"), (86400 * 30, "month"), (86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = int(seconds // size)
            phrase = f"{count} {unit}{'' if count == 1 else 's'}"
            return f"in {phrase}" if future else f"{phrase} ago"
    return "just now"


CONTROL = re.compile(r"<(input|button|select|textarea)\b")


def _read_only(html_text: str) -> Markup:
    """Every form control of rendered markup disabled (a support session's pages). Safe on escaped
    output: a ``<`` that is text or in an attribute is ``&lt;`` there, so each match is a real tag."""
    return Markup(CONTROL.sub(r"<\1 disabled", str(html_text)))


ENV = Environment(
    loader=ChoiceLoader([FileSystemLoader(HERE / "templates"),
                         PrefixLoader({noun: FileSystemLoader(HERE / noun / "templates") for noun in NOUNS})]),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, enable_async=False,
)
ENV.globals["static"] = static_url
ENV.filters["relative"] = _relative
ENV.filters["event"] = words.event
ENV.filters["device"] = words.device
ENV.filters["qr"] = qr.svg
ENV.filters["read_only"] = _read_only


def is_htmx(request: Request) -> bool:
    """An htmx request that wants a fragment: a history restore wants the whole page."""
    return (request.headers.get("hx-request") == "true"
            and request.headers.get("hx-history-restore-request") != "true")


def render(request: Request, template: str, status: int = 200, *, fragment: str | None = None,
           headers: dict[str, str] | None = None, **context: Any) -> HTTPResponse:
    """The page, or (to an htmx request) ``fragment`` alone when the route has one."""
    person = getattr(request.ctx, "person", None)
    context.setdefault("person", person)
    context.setdefault("account", getattr(request.ctx, "account", None))
    context.setdefault("accounts", getattr(request.ctx, "accounts", []))
    context.setdefault("page", template.split("/")[0])
    context.setdefault("errors", {})
    context.setdefault("values", {})
    context.setdefault("notice", None)
    context.setdefault("title", "")
    context["csrf_token"] = guard.csrf_token(request)
    context["request_path"] = request.path
    name = fragment if fragment and is_htmx(request) else template
    body = ENV.get_template(name).render(**context)
    if name == fragment and person is not None and person.support:
        body = _read_only(body)  # a fragment replacing part of a support session's page stays disabled
    sent = dict(headers or {})
    if fragment:
        sent["Vary"] = "HX-Request"
    return html(body, status=status, headers=sent)


def static_blueprint() -> Blueprint:
    bp = Blueprint("console_static")

    @bp.get("/static/<digest:str>/<name:path>")
    async def static_file(request: Request, digest: str, name: str) -> HTTPResponse:
        found = FILES.get(name)
        if found is None or found[2] != digest:
            return raw(b"", status=404)
        content, kind, _ = found
        return raw(content, content_type=kind, headers={"Cache-Control": "public, max-age=31536000, immutable"})

    return bp
