"""API calls made in other systems with a platform API key: ``POST /internal/v1/usage/api-calls``
(service credential).

The pages system accepts platform keys (app/http/api_keys.py) and counts every call a valid key makes
there, as this platform's /v1 gate does (app/platform/gate/v1.py). It sums them per account in
memory and sends the sums every few seconds (app/pages/gate/api_calls.py): ``{"Counts": {"<account>": n}}``.
Each account's sum becomes one atomic increment of ``api_calls`` in the sharded usage counters
(models/platform/usage.py), the ones ``GET /v1/account/usage`` reads as ``ApiCalls``, all in one
transaction: the answer ``{"Counted": k, "Unknown": [...]}`` means every count is committed (an
account the platform does not know is skipped and named, never an error: the sender drops it).
The month is the one at receipt.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints
from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import Body, parse_body
from app.http.openapi import STRING, answers, described, reply_of
from app.http.responses import reply
from app.http.services import require_service_credential
from app.platform import db
from models.platform.tenant import Tenant
from models.platform.usage import increment, period_of

bp = Blueprint("internal_usage_calls", url_prefix="/internal/v1")

MAX_ACCOUNTS = 10_000
AccountId = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
COUNTED = reply_of(Counted=described({"type": "integer"}, "How many accounts' counts were added."),
                   Unknown=described({"type": "array", "items": STRING},
                                     "The account ids the platform does not know (skipped)."))


class ApiCalls(Body):
    counts: dict[AccountId, Annotated[int, Field(ge=1, le=1_000_000_000)]] = Field(max_length=MAX_ACCOUNTS)
    """API calls made since the last report, by account id (at most 10,000 accounts)."""


@bp.post("/usage/api-calls", ctx_auth="service", ctx_body=ApiCalls, ctx_responses=answers({200: COUNTED}))
async def add_api_calls(request: Request) -> HTTPResponse:
    """Adds other systems' keyed API calls, summed per account, to the accounts' usage."""
    require_service_credential(request)
    counts = parse_body(request, ApiCalls).counts
    period = period_of()
    async with db.transaction() as conn:
        known = dict(await Tenant.filter(public_id__in=list(counts)).using_db(conn).values_list("public_id", "id"))
        for account in sorted(known):  # one order for every sender: concurrent flushes never deadlock
            await increment(conn, known[account], period, api_calls=counts[account])
    return reply(request, {"Counted": len(known), "Unknown": sorted(set(counts) - set(known))})
