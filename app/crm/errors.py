"""The crm system's own error codes, subclasses of :mod:`app.http.errors` (none yet)."""

from __future__ import annotations
