"""Datacenter ASNs as the operator surface and the runtime see them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from models.platform.datacenter_asn import DatacenterAsn

ASN_SHAPE = shape(Asn=described({"type": "integer"}, "The autonomous system number."),
                  Name=described(STRING, "A name for the network; empty when none was given."),
                  CreatedBy=described(STRING, "The id of the staff member who classed it (usr_...)."),
                  CreatedAt=described(TIMESTAMP, "When it was classed."))
ASN = reply_of(DatacenterAsn=described(ASN_SHAPE, "The ASN classed as a datacenter network."))
ASNS = reply_of(DatacenterAsns=described({"type": "array", "items": ASN_SHAPE},
                                         "Every ASN classed as a datacenter network."))
NUMBERS = reply_of(Asns=described({"type": "array", "items": {"type": "integer"}},
                                  "Every ASN staff classed as a datacenter network."))


def asn_json(row: DatacenterAsn) -> dict[str, Any]:
    return {"Asn": row.asn, "Name": row.name, "CreatedBy": row.created_by, "CreatedAt": iso(row.created_at)}
