"""The one logging set-up of every Herald process (docs/observability.md).

``setup(settings, role=..., system=...)`` is called once by each role (`herald serve <system>`, the
worker, the scheduler, the stream consumer, the SMTP server, `herald up`): one handler on the root
logger, writing JSON lines (``LOG_FORMAT=json``, the default with ``HERALD_ENV=production``) or
readable text (otherwise) to the process's standard output. Every library's logger, Sanic's
included, reaches it by propagation and has no handler of its own, so each line is written once.

A line carries what is known where it was written: the system and role of the process, and the
fields of the current logging context (``start`` / ``bind``): the request id and the account of an
HTTP request, the Dramatiq message of a job. The context is a context variable, so each request's
task and each worker thread sees its own.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from contextvars import ContextVar
from typing import Any

from kit.settings import Settings

# The loggers Sanic writes to. Sanic's own configuration gives each a handler of its own and leaves
# them propagating to the root as well: every line twice. Here they get none, and propagate.
SANIC_LOGGERS = ("sanic.root", "sanic.error", "sanic.access", "sanic.server", "sanic.websockets")

# APScheduler writes two INFO lines per run of every job ("Running job", "executed successfully"):
# tens of megabytes a day on an idle stack. httpx writes one per request, full URL included (a
# provider's API may take its key in the query). Their warnings and errors still show.
QUIETED = {"apscheduler": logging.WARNING, "httpx": logging.WARNING, "httpcore": logging.WARNING}

_context: ContextVar[dict[str, Any] | None] = ContextVar("herald_log_context", default=None)
_process: dict[str, Any] = {}


def start(**fields: Any) -> None:
    """A fresh logging context (a new request, a new job): only these fields."""
    _context.set({name: value for name, value in fields.items() if value is not None})


def bind(**fields: Any) -> None:
    """Add fields to the current context (the account, once a gate knows it)."""
    current = _context.get() or {}
    _context.set({**current, **{name: value for name, value in fields.items() if value is not None}})


def clear() -> None:
    _context.set(None)


def current(name: str) -> Any:
    """A field of the current context (None when unset): ``current("request_id")`` is the request a
    write is made for, in its HTTP handler or in a job that request caused (models/outbox.py)."""
    return (_context.get() or {}).get(name)


def _utc(created: float) -> str:
    seconds = int(created)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int((created - seconds) * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the process's system and role, the
    context's fields, a record's own ``fields`` (``extra={"fields": {...}}``) and the error's trace."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {"time": _utc(record.created), "level": record.levelname, "logger": record.name,
                                "message": record.getMessage(), **_process}
        line.update(_context.get() or {})
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``2026-11-28 02:00:00,123 INFO herald.access [req_…]: message``: the context's request id (or
    job) in brackets when there is one."""

    def __init__(self, fmt: str | None = None) -> None:
        super().__init__(fmt or "%(asctime)s %(levelname)s %(name)s%(where)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        context = _context.get() or {}
        tag = context.get("request_id") or context.get("job")
        record.where = f" [{tag}]" if tag else ""
        return super().format(record)


class _StandardStream(logging.StreamHandler):
    """Writes to whatever ``sys.stdout`` (or ``sys.stderr``) is at the time of the write: a Dramatiq
    worker process replaces them with the pipe its parent reads, after this handler was made."""

    def __init__(self, which: str) -> None:
        self._which = which  # not _name: logging.Handler keeps its own name there
        super().__init__()

    @property
    def stream(self):  # type: ignore[override]
        return getattr(sys, self._which)

    @stream.setter
    def stream(self, _value) -> None:
        pass


def setup(settings: Settings, *, role: str, system: str | None = None, stream: str = "stdout",
          text_format: str | None = None) -> None:
    """Make the root logger's one handler; safe to call again (a forked or spawned process)."""
    _process.clear()
    _process.update({name: value for name, value in (("system", system), ("role", role)) if value})
    handler = _StandardStream(stream)
    handler.setFormatter(JsonFormatter() if settings.log_format == "json" else TextFormatter(text_format))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(settings.log_level)
    for name in SANIC_LOGGERS:
        logger = logging.getLogger(name)
        for old in logger.handlers[:]:
            logger.removeHandler(old)
        logger.propagate = True
    for name, level in QUIETED.items():
        logging.getLogger(name).setLevel(max(level, logging.getLevelName(settings.log_level)))
    logging.captureWarnings(True)  # a library's warning is a line like the others, not raw stderr
