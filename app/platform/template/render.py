"""Rendering a template's parts with variables, under the render budget and deadline.

E-mail, SMS and push templates are Jinja2 templates run in the budgeted sandbox of
:mod:`kit.sandbox` (no attribute of Python internals; loop iterations and calls counted
across nesting; sizes bounded; recursion, include and import refused) with ``StrictUndefined``: a
variable the template uses and the send does not give is a 422 naming it, never an empty string.
The HTML part autoescapes (a variable holding ``<script>`` arrives as text); the subject and text
parts do not (they are not HTML).

Where it renders: a template that only prints text and variables (:func:`kit.sandbox.is_plain`)
renders inline, its cost being linear in what it prints; any other renders in a render process
(:mod:`kit.render_pool`), off the event loop, killed past the deadline. Every refusal of the
budget or the deadline is a 422 ``ValidationError`` with ``Details.Template`` saying why.

At save (:func:`vet`) the template is parsed and tried once with empty variables, in a render
process unless small and plain: one that overruns the budget or the deadline by itself is refused
then, not at its first send. Parsing a large template costs too (about 20 us a token), so the
event loop parses only small ones, and the variables of each template are remembered by content.

WhatsApp templates keep the provider's positional placeholders (``{{1}}``, ``{{2}}``): Meta
renders them from the positional parameters, and Herald fills them the same way for the timeline.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from typing import Any, Awaitable

from app.http import errors
from kit import render_pool, sandbox

_POSITIONAL = re.compile(r"\{\{\s*(\w+)\s*\}\}")


class RenderDeadline(errors.Unprocessable):
    """422 ``ValidationError``: the render was stopped at the deadline (a batch counts them)."""


# What renders inline, in the HTTP process: a plain template (text, variables, attributes, ``if``) of
# at most this many characters in all; its parse, compile and render take well under a millisecond
# (:func:`kit.sandbox.is_plain` parses it, so the length is checked first).
INLINE_MAX = 2048
# The variables of templates already inspected, by content: GET /api/templates lists them at every
# call and parsing a large template is milliseconds to seconds; the render process inspects at save.
_VARIABLES: OrderedDict[bytes, list[str]] = OrderedDict()
_VARIABLES_KEPT = 1024


def check(channel: str, parts: dict[str, str | None]) -> list[str]:
    """The variables the parts use (sorted), remembered by content; a part that does not parse is
    a 422 naming it. Saved templates were inspected by :func:`vet` (in a render process unless
    small); one not yet seen by this process (saved before it started) is parsed here once."""
    if channel == "whatsapp":
        return sorted({name for text in parts.values() if text for name in _POSITIONAL.findall(text)},
                      key=lambda name: (len(name), name))
    key = _key(channel, parts)
    if key in _VARIABLES:
        _VARIABLES.move_to_end(key)
        return _VARIABLES[key]
    inspected = sandbox.inspect_parts(parts)
    if "error" in inspected:
        raise _refusal(channel, inspected["error"])
    return _remember(key, inspected["ok"])


async def inspect(channel: str, parts: dict[str, str | None]) -> list[str]:
    """:func:`check` without parsing a large template on the event loop: remembered, else parsed
    here when small, else in a render process. A template that cannot be inspected (saved before
    the limits of the budget) lists no variables rather than failing the listing."""
    if channel == "whatsapp":
        return check(channel, parts)
    key = _key(channel, parts)
    if key in _VARIABLES:
        _VARIABLES.move_to_end(key)
        return _VARIABLES[key]
    if sum(len(text) for text in parts.values() if text) <= INLINE_MAX:
        answer = sandbox.inspect_parts(parts)
    else:
        try:
            answer = await render_pool.inspect(parts)
        except (render_pool.RenderTimeout, render_pool.RenderCrashed):
            return []  # not remembered: a busy machine's timeout must not hide the variables for good
    return _remember(key, answer.get("ok", []))


def _key(channel: str, parts: dict[str, str | None]) -> bytes:
    # A digest, not the texts: a thousand templates of a megabyte must not stay in memory.
    digest = hashlib.sha256(channel.encode())
    for text in parts.values():
        digest.update(b"\0" + (text or "").encode("utf-8", "surrogatepass"))
    return digest.digest()


def _remember(key: bytes, names: list[str]) -> list[str]:
    _VARIABLES[key] = names
    while len(_VARIABLES) > _VARIABLES_KEPT:
        _VARIABLES.popitem(last=False)
    return names


async def render(channel: str, parts: dict[str, str | None], variables: dict[str, Any]) -> dict[str, str | None]:
    """Every part rendered with ``variables``; 422 naming a missing variable, a refused operation,
    or the budget or deadline the render overran."""
    if channel == "whatsapp":
        return {part: _positional(text, variables) if text else text for part, text in parts.items()}
    if _inline(parts):
        answer = sandbox.render_parts(channel, parts, variables)
    else:
        answer = await _in_process(render_pool.render(channel, parts, variables))
    if "error" in answer:
        raise _refusal(channel, answer["error"])
    return answer["ok"]


async def vet(channel: str, parts: dict[str, str | None]) -> list[str]:
    """At save: parse (the shapes the budget cannot bound refused, at most MAX_TOKENS tokens a
    part) and try once with empty variables; the variables the template uses, or a 422. A template
    that overruns the budget, the output limit or the deadline by itself is refused now; any other
    failure of the trial (a variable of the wrong shape) waits for a real send."""
    if channel == "whatsapp":
        return check(channel, parts)
    if _inline(parts):
        answer = sandbox.vet_parts(channel, parts)
    else:
        answer = await _in_process(render_pool.vet(channel, parts))
    if "error" in answer:
        raise _refusal(channel, answer["error"])
    return _remember(_key(channel, parts), answer["ok"])


def _inline(parts: dict[str, str | None]) -> bool:
    texts = [text for text in parts.values() if text]
    return sum(len(text) for text in texts) <= INLINE_MAX and all(sandbox.is_plain(text) for text in texts)


async def _in_process(job: Awaitable[dict[str, Any]]) -> dict[str, Any]:
    try:
        return await job
    except render_pool.RenderTimeout:
        seconds = f"{render_pool.DEADLINE_SECONDS:g}"
        raise RenderDeadline(f"The template took longer than {seconds} s to render and was stopped.",
                             details={"Template": f"render deadline exceeded ({seconds} s)"}) from None
    except render_pool.RenderCrashed:
        raise errors.Unprocessable("The template's render process died (too much memory?).",
                                   details={"Template": "render process died"}) from None


def _refusal(channel: str, error: dict[str, str]) -> errors.HttpError:
    kind, part, reason = error["kind"], error["part"], error["reason"]
    if kind == "missing":
        return errors.Unprocessable(f"The template needs the variable {reason!r} ({part}).",
                                    details={f"Variables.{reason}": "required"})
    if kind == "budget":
        return errors.Unprocessable(f"{part or 'The template'} exceeds the render budget: {reason}.",
                                    details={"Template": f"render budget exceeded: {reason}"})
    if kind == "too_long":
        what = "The rendered SMS is" if channel == "sms" else f"{part} renders to"
        return errors.Unprocessable(f"{what} longer than {reason} characters.",
                                    details={part: f"renders to more than {reason} characters",
                                             "Template": f"renders to more than {reason} characters"})
    if kind == "refused":
        return errors.Unprocessable(f"{part}: the template tried an operation the sandbox refuses.",
                                    details={part: f"refused by the sandbox: {reason}"})
    if kind in ("syntax", "unbounded"):
        detail = f"template syntax: {reason}"
        # A shape the budget refuses is about the template as a whole: Details.Template says it too.
        details = {part: detail, "Template": detail} if kind == "unbounded" else {part: detail}
        return errors.Unprocessable(f"{part} is not a valid template: {reason}.", details=details)
    return errors.Unprocessable(f"{part} could not be rendered with these variables ({reason}).",
                                details={part: f"render error: {reason}"})


def _positional(text: str, variables: dict[str, Any]) -> str:
    missing = sorted({name for name in _POSITIONAL.findall(text) if name not in variables})
    if missing:
        raise errors.Unprocessable(f"The template needs the variables {', '.join(missing)}.",
                                   details={f"Variables.{name}": "required" for name in missing})
    return _POSITIONAL.sub(lambda found: str(variables[found.group(1)]), text)
