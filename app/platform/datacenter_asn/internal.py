"""The datacenter ASNs for the runtime: ``GET /internal/v1/datacenter-asns`` (service credential).

The runtime classes traffic with this list (issue of the runtime): it reads it whole and keeps it
for a while; the answer is the sorted ASN numbers.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.responses import reply
from app.platform import db
from app.http.services import require_service_credential
from app.platform.datacenter_asn import service
from app.platform.datacenter_asn.views import NUMBERS

bp = Blueprint("internal_datacenter_asns", url_prefix="/internal/v1")


@bp.get("/datacenter-asns", ctx_auth="service", ctx_responses=answers({200: NUMBERS}))
async def datacenter_asns(request: Request) -> HTTPResponse:
    """Every ASN staff classed as a datacenter network."""
    require_service_credential(request)
    rows = await service.all_asns(db.connection())
    return reply(request, {"Asns": [row.asn for row in rows]})
