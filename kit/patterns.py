"""Regular expressions written by tenants (a form field's ``Pattern``), compiled and run by RE2 only.

Python's ``re`` backtracks: ``(a+)+$`` against 27 characters of anonymous input once held a
runtime's event loop for 9 s (issue 38). RE2 matches in time linear in the input and refuses at
compile what it cannot run that way (backreferences ``\\1``, lookaround ``(?=``, ``(?<=``, Python's
``\\Z``, repetition counts above 1000, programs larger than its memory budget). The binding is
``google-re2`` (imported as ``re2``), which has no fallback: a pattern RE2 refuses raises, it is
never handed to a backtracking engine. Other packages install a module of the same name that does
fall back to ``re``; :func:`_check_engine` refuses to import over one of those, so a wrong install
fails at start instead of quietly bringing the backtracking back.

What a tenant may notice against Python's ``re`` (docs/pages.md, "Forms"): the syntax is RE2's
(``\\d``, ``\\w`` and ``\\b`` are ASCII; ``\\pL`` and ``[[:alpha:]]`` classes exist; ``\\z`` ends the
text). Compiled patterns are kept in the binding's own cache (128 of them, each within RE2's
default memory budget of 8 MiB).
"""

from __future__ import annotations

import re2

ENGINE = "RE2"

_OPTIONS = re2.Options()
# A refused pattern is answered to whoever wrote it (pages) or logged by the caller (the runtime,
# the migration); RE2 writing its own line to stderr for each one would only be noise.
_OPTIONS.log_errors = False


class UnsupportedPattern(ValueError):
    """RE2 cannot compile the pattern; the message is RE2's reason (``invalid escape sequence: \\1``)."""


def compile(pattern: str):  # noqa: A001 - the name every regular-expression module uses
    """The pattern compiled by RE2, or :class:`UnsupportedPattern`."""
    if not isinstance(pattern, str):  # stored JSON may hold anything; bytes would change RE2's meaning
        raise UnsupportedPattern("a pattern is text")
    try:
        return re2.compile(pattern, _OPTIONS)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else "not a pattern RE2 can run"
        raise UnsupportedPattern(reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) \
            from None


def fullmatch(pattern: str, text: str) -> bool:
    """Whether all of ``text`` matches ``pattern`` (time linear in ``len(text)``); raises
    :class:`UnsupportedPattern` for a pattern RE2 refuses."""
    return compile(pattern).fullmatch(text) is not None


def engine_of(compiled) -> str:
    """The engine behind a compiled pattern: ``"RE2"`` for one of RE2's own programs (the tests
    assert it), else the name of whatever module made it."""
    program = getattr(compiled, "_regexp", None)
    if isinstance(program, re2._re2.RE2):
        return ENGINE
    return type(compiled).__module__


def _check_engine() -> None:
    """A module named ``re2`` that compiles a backreference is a wrapper falling back to ``re``."""
    try:
        compiled = re2.compile(r"(a)\1", _OPTIONS)
    except re2.error:
        return
    raise ImportError(f"the installed 're2' module ({getattr(re2, '__file__', '?')}) accepts backreferences, so it "
                      f"falls back to a backtracking engine (it made a {engine_of(compiled)} pattern); "
                      "install google-re2 instead")


_check_engine()
