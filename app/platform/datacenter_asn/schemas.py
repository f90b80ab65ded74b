"""Body of POST /api/admin/datacenter-asn (strict)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body
from app.platform.datacenter_asn.service import ASN_MAX


class AsnCreate(Body):
    asn: int = Field(ge=1, le=ASN_MAX)
    """The autonomous system number to class as a datacenter network."""
    name: str = Field(default="", max_length=200)
    """A name for the network (optional)."""
