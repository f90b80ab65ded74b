"""Datacenter ASNs on the operator surface (contract D; docs/operator.md).

    GET/POST /api/admin/datacenter-asn        the ASNs classed as datacenter; class one {Asn, Name?}
    DELETE   /api/admin/datacenter-asn/{asn}  remove the classification
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.datacenter_asn import service
from app.platform.datacenter_asn.schemas import AsnCreate
from app.platform.datacenter_asn.views import ASN, ASNS, asn_json
from app.platform.gate.admin import actor

bp = Blueprint("platform_admin_datacenter_asn")


@bp.get("/api/admin/datacenter-asn", ctx_auth="session", ctx_errors=(404,), ctx_responses=answers({200: ASNS}))
async def list_asns(request: Request) -> HTTPResponse:
    """List the networks (ASNs) classed as datacenters, by ASN.

    Staff only: anyone else gets 404. The whole list, not paged."""
    rows = await service.all_asns(db.connection())
    return reply(request, {"DatacenterAsns": [asn_json(row) for row in rows]})


@bp.post("/api/admin/datacenter-asn", ctx_auth="session", ctx_body=AsnCreate, ctx_errors=(403, 404, 409, 413),
         ctx_responses=answers({201: ASN}))
async def classify(request: Request) -> HTTPResponse:
    """Class a network (ASN, 1 to 4294967295) as a datacenter.

    Staff only (404 to anyone else). 409 when it is already classed; 403 in a support session."""
    body = parse_body(request, AsnCreate)
    async with db.transaction() as conn:
        row = await service.classify(conn, actor(request), body.asn, body.name.strip())
    return reply(request, {"DatacenterAsn": asn_json(row)}, status=201)


@bp.delete("/api/admin/datacenter-asn/<asn:int>", ctx_auth="session", ctx_errors=(403, 404),
           ctx_responses=answers({204: NO_CONTENT}))
async def declassify(request: Request, asn: int) -> HTTPResponse:
    """Stop classing a network (ASN) as a datacenter.

    Staff only (404 to anyone else, and for an ASN not classed); 403 in a support session."""
    if not 1 <= asn <= service.ASN_MAX:
        raise errors.NotFound(f"AS{asn} is not classed as a datacenter.")
    async with db.transaction() as conn:
        await service.declassify(conn, actor(request), asn)
    return no_content()
