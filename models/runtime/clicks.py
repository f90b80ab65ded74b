"""Click and A/B counts the public routes take and the flush sums to the pages system.

The HTTP side adds to one Redis hash (``HINCRBY``, one field per destination); the flush
(tasks/streams/clicks.py, run by ``herald consume`` every few seconds) moves the hash aside, posts the
sums to pages at most 20 destinations per call, and deletes each field only after pages took it; a
failed call leaves its fields to be merged back and sent again by the next flush (never lost).

Fields: ``r|<redirect id>`` (a /r/ redirect), ``d|<page id>|<destination id>`` (a routed page),
``v|<page id>|<variant id>`` (an A/B view), ``c|<page id>|<variant id>`` (an A/B conversion).
"""

from __future__ import annotations

PENDING = "{runtime-clicks}:pending"
INFLIGHT = "{runtime-clicks}:inflight"
SEP = "|"


def redirect_field(redirect_id: str) -> str:
    return f"r{SEP}{redirect_id}"


def destination_field(page_id: str, destination_id: str) -> str:
    return f"d{SEP}{page_id}{SEP}{destination_id}"


def view_field(page_id: str, variant_id: str) -> str:
    return f"v{SEP}{page_id}{SEP}{variant_id}"


def conversion_field(page_id: str, variant_id: str) -> str:
    return f"c{SEP}{page_id}{SEP}{variant_id}"
