"""Signing keys over the JSON API: ``POST /v1/auth/keys/rotate`` (service credential)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.http.openapi import answers
from app.identity import db
from app.identity.gate.credentials import require_service
from app.identity.signing_key import service

bp = Blueprint("identity_signing_key")


@bp.post("/v1/auth/keys/rotate", ctx_auth="service", ctx_responses=answers({201: None}))
async def rotate_keys(request: Request) -> HTTPResponse:
    """Rotate the signing key of tokens: a new key becomes active and the active one retires.

    Service credential only. 201 `{kid, status}`."""
    require_service(request)
    async with db.transaction() as conn:
        key = await service.rotate(conn)
    return reply(request, {"kid": key.kid, "status": key.status.value}, status=201)
