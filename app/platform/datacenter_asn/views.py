"""Datacenter ASNs as the operator surface and the runtime see them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, reply_of, shape
from kit.timestamps import iso
from models.platform.datacenter_asn import DatacenterAsn

ASN_SHAPE = shape(Asn={"type": "integer"}, Name=STRING, CreatedBy=STRING, CreatedAt=TIMESTAMP)
ASN = reply_of(DatacenterAsn=ASN_SHAPE)
ASNS = reply_of(DatacenterAsns={"type": "array", "items": ASN_SHAPE})
NUMBERS = reply_of(Asns={"type": "array", "items": {"type": "integer"}})


def asn_json(row: DatacenterAsn) -> dict[str, Any]:
    return {"Asn": row.asn, "Name": row.name, "CreatedBy": row.created_by, "CreatedAt": iso(row.created_at)}
