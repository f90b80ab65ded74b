"""Calls made here with a platform API key count in the account's usage (``ApiCalls`` of the
platform's ``GET /v1/account/usage``), cheaply: the gate adds one to a per-account counter in memory
(no I/O on the request path), and every :data:`FLUSH_SECONDS` the sums go in one call to the
platform's ``POST /internal/v1/usage/api-calls`` (``{"Counts": {account: n}}``, service credential),
which commits them as one atomic increment per account (app/platform/usage/internal_calls.py).

What is counted: every call of a key the platform says is valid (not revoked), whatever comes next
(throttled, account suspended, scope refused), as the platform's own /v1 gate counts.

Bounds: a count reaches the usage within :data:`FLUSH_SECONDS` (plus the platform's answer). The
platform down or failing: the sums are kept and added to the next round, so nothing is lost, only
late. The server stopping flushes once more (``before_server_stop``), so an orderly stop loses
nothing; a process killed outright loses at most the last interval's calls. A flush whose commit
succeeded but whose answer was lost (a timeout after the platform committed) is sent again: such a
round counts twice. Over-counting on that rare failure was chosen over losing the calls.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from sanic import Sanic

from app.http import errors
from app.http.services import services

log = logging.getLogger("herald.pages.api_calls")

FLUSH_SECONDS = 5.0
FLUSH_PATH = "/internal/v1/usage/api-calls"
MAX_ACCOUNTS_PER_CALL = 10_000  # the platform's cap on one body


class ApiCallCounter:
    def __init__(self, app: Sanic) -> None:
        self._app = app
        self.counts: Counter[str] = Counter()

    def count(self, tenant_id: str) -> None:
        self.counts[tenant_id] += 1

    async def flush(self) -> None:
        """Sends the sums; on any failure they go back into the counter for the next round."""
        pending, self.counts = self.counts, Counter()
        accounts = list(pending)
        for start in range(0, len(accounts), MAX_ACCOUNTS_PER_CALL):
            chunk = {account: pending[account] for account in accounts[start:start + MAX_ACCOUNTS_PER_CALL]}
            try:
                answer = await services(self._app).client("platform").post(
                    FLUSH_PATH, json={"Counts": chunk}, outage=errors.ServiceUnavailable)
                if not answer.ok:
                    raise RuntimeError(f"answered {answer.status}: {str(answer.body)[:200]}")
            except BaseException as error:  # noqa: BLE001 - keep every count not yet committed (cancelled too)
                for account in accounts[start:]:
                    self.counts[account] += pending[account]
                if not isinstance(error, Exception):
                    raise
                log.warning("API-call counts not flushed (kept for the next round): %s", error)
                return
            if isinstance(answer.body, dict) and answer.body.get("Unknown"):
                log.info("API calls of accounts the platform does not know dropped: %s", answer.body["Unknown"][:20])

    async def run(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            if self.counts:
                await self.flush()


def counter(app: Sanic) -> ApiCallCounter:
    return app.ctx.api_calls


def install(app: Sanic) -> None:
    @app.before_server_start
    async def start_api_calls(app: Sanic) -> None:
        app.ctx.api_calls = ApiCallCounter(app)
        app.add_task(app.ctx.api_calls.run(), name="api-calls-flush")

    @app.before_server_stop
    async def stop_api_calls(app: Sanic) -> None:
        await app.cancel_task("api-calls-flush", raise_exception=False)
        if app.ctx.api_calls.counts:
            await app.ctx.api_calls.flush()
