"""Rendering a template's parts with variables.

E-mail, SMS and push templates are Jinja2 templates run in Jinja2's ``SandboxedEnvironment``
(no attribute of Python internals, ranges capped, ``*`` repetition and ``**`` bounded) with ``StrictUndefined``: a variable the
template uses and the send does not give is a 422 naming it, never an empty string. The HTML
part autoescapes (a variable holding ``<script>`` arrives as text); the subject and text parts
do not (they are not HTML). A rendered part longer than MAX_RENDERED characters is refused.

WhatsApp templates keep the provider's positional placeholders (``{{1}}``, ``{{2}}``): Meta
renders them from the positional parameters, and Herald fills them the same way for the timeline.
"""

from __future__ import annotations

import re
from typing import Any

from jinja2 import StrictUndefined, TemplateSyntaxError, UndefinedError, meta
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

from app.http import errors

MAX_RENDERED = 1_000_000
_POSITIONAL = re.compile(r"\{\{\s*(\w+)\s*\}\}")
_UNDEFINED = re.compile(r"'([^']+)' is undefined")

class _Sandbox(SandboxedEnvironment):
    """The sandbox, with the operators that can build huge values bounded: ``*`` of a sequence and
    ``**`` (a template or a variable must not make the renderer allocate gigabytes)."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int) \
                        and len(sequence) * max(times, 0) > MAX_RENDERED:
                    raise SecurityError("a repetition larger than the render limit")
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > 64:
            raise SecurityError("an exponent above 64")
        return super().call_binop(context, operator, left, right)


MAX_RANGE = 1000


def _range(*args: int) -> range:
    """``range`` in templates, at most MAX_RANGE items (Jinja2's own cap is 100,000)."""
    found = range(*args)
    if len(found) > MAX_RANGE:
        raise SecurityError(f"a range of more than {MAX_RANGE} items")
    return found


_TEXT = _Sandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True)
_HTML = _Sandbox(undefined=StrictUndefined, autoescape=True, keep_trailing_newline=True)
for _environment_ in (_TEXT, _HTML):
    _environment_.globals["range"] = _range


def _environment(part: str) -> SandboxedEnvironment:
    return _HTML if part == "Html" else _TEXT


def check(channel: str, parts: dict[str, str | None]) -> list[str]:
    """The variables the parts use (sorted); a part that does not compile is a 422 naming it."""
    if channel == "whatsapp":
        return sorted({name for text in parts.values() if text for name in _POSITIONAL.findall(text)},
                      key=lambda name: (len(name), name))
    names: set[str] = set()
    for part, text in parts.items():
        if not text:
            continue
        environment = _environment(part)
        try:
            names |= meta.find_undeclared_variables(environment.parse(text))
        except TemplateSyntaxError as error:
            raise errors.Unprocessable(f"{part} is not a valid template: {error.message} (line {error.lineno}).",
                                       details={part: f"template syntax: {error.message} (line {error.lineno})"})
    return sorted(names)


def render(channel: str, parts: dict[str, str | None], variables: dict[str, Any]) -> dict[str, str | None]:
    """Every part rendered with ``variables``; 422 naming a missing variable or a refused operation."""
    if channel == "whatsapp":
        return {part: _positional(text, variables) if text else text for part, text in parts.items()}
    out: dict[str, str | None] = {}
    for part, text in parts.items():
        if not text:
            out[part] = text
            continue
        try:
            template = _environment(part).from_string(text)
            pieces, size = [], 0
            for piece in template.generate(**variables):
                size += len(piece)
                if size > MAX_RENDERED:
                    raise errors.Unprocessable(f"{part} renders to more than {MAX_RENDERED} characters.",
                                               details={part: f"renders to more than {MAX_RENDERED} characters"})
                pieces.append(piece)
            out[part] = "".join(pieces)
        except UndefinedError as error:
            found = _UNDEFINED.search(str(error.message or ""))
            name = found.group(1) if found else "?"
            raise errors.Unprocessable(f"The template needs the variable {name!r} ({part}).",
                                       details={f"Variables.{name}": "required"}) from None
        except SecurityError as error:
            raise errors.Unprocessable(f"{part}: the template tried an operation the sandbox refuses.",
                                       details={part: f"refused by the sandbox: {error}"}) from None
        except TemplateSyntaxError as error:
            raise errors.Unprocessable(f"{part} is not a valid template: {error.message}.",
                                       details={part: f"template syntax: {error.message}"}) from None
        except (TypeError, ValueError, ArithmeticError, OverflowError) as error:
            raise errors.Unprocessable(f"{part} could not be rendered with these variables ({type(error).__name__}).",
                                       details={part: f"render error: {type(error).__name__}"}) from None
    return out


def _positional(text: str, variables: dict[str, Any]) -> str:
    missing = sorted({name for name in _POSITIONAL.findall(text) if name not in variables})
    if missing:
        raise errors.Unprocessable(f"The template needs the variables {', '.join(missing)}.",
                                   details={f"Variables.{name}": "required" for name in missing})
    return _POSITIONAL.sub(lambda found: str(variables[found.group(1)]), text)
