"""CSV that a spreadsheet cannot run: every CSV Herald writes goes through :func:`writer` and
:func:`neutralize`; every import of such a file through :func:`restore`.

Why: a cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which some
spreadsheets skip before reading a formula) is read as a formula by Excel, LibreOffice and Google
Sheets: ``=HYPERLINK("http://x", "click")`` in a contact's name becomes a live link, and DDE
payloads run commands (OWASP, "CSV Injection"). So, as OWASP describes:

- such a cell gets a single quote in front (``'=HYPERLINK(...)``): the spreadsheet shows the text;
- every cell is quoted (``csv.QUOTE_ALL``), so a separator inside a value cannot start a new cell
  that escapes the guard.

A cell that already begins with ``'`` gets one more, so that :func:`restore` (strip one leading
``'`` when the next character is one of those or another ``'``) gives back exactly what was
written: export, then import, keeps every value.

Values of typed fields whose own validation makes them harmless are written as they are (the
caller passes ``typed=True``): an E.164 phone is ``+`` and digits only, which a spreadsheet reads as
a number, never as a formula.
"""

from __future__ import annotations

import csv
from typing import IO, Any

GUARD = "'"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_GUARDED_STARTS = (*FORMULA_STARTS, GUARD)

__all__ = ["FORMULA_STARTS", "GUARD", "neutralize", "restore", "writer"]


def neutralize(value: str, *, typed: bool = False) -> str:
    """The cell as written: a ``'`` in front when a spreadsheet would read it as a formula (or when it
    begins with ``'`` itself, so the guard can be told apart on import); ``typed`` values as they are."""
    if typed or not value or not value.startswith(_GUARDED_STARTS):
        return value
    return GUARD + value


def restore(value: Any) -> Any:
    """The value an import takes from a cell :func:`neutralize` wrote: one leading ``'`` removed when
    it guards one of the formula characters or another ``'``; anything else (not a string) as it is."""
    if isinstance(value, str) and len(value) > 1 and value[0] == GUARD and value[1] in _GUARDED_STARTS:
        return value[1:]
    return value


def writer(stream: IO[str]) -> Any:
    """A ``csv.writer`` that quotes every cell (the cells themselves go through :func:`neutralize`)."""
    return csv.writer(stream, quoting=csv.QUOTE_ALL)
