"""The platform's answers about a sending domain -> the mail API's dicts (snake_case)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape

RECORD = shape(purpose=STRING, type=STRING, name=STRING, value=STRING, required={"type": "boolean"})
FOUND = {"type": "object", "properties": {"purpose": STRING, "type": STRING, "name": STRING,
                                          "required": {"type": "boolean"}, "found": {"type": ["boolean", "null"]},
                                          "reason": STRING}}
DOMAIN_SHAPE = shape(name=STRING, verified={"type": "boolean"}, status={"enum": ["verified", "unverified",
                                                                                 "unconfirmed"]},
                     dns_status={"enum": ["ok", "pending"]}, usable_for={"type": "array", "items": STRING},
                     records={"type": "array", "items": RECORD}, verified_at=NULLABLE_STRING,
                     checked_at=NULLABLE_STRING, created_at=TIMESTAMP,
                     last_check={"type": ["object", "null"], "properties": {
                         "outcome": STRING, "checked_at": TIMESTAMP, "records": {"type": "array", "items": FOUND}}})
DOMAIN = reply_of(domain=DOMAIN_SHAPE)
DOMAINS = reply_of(domains={"type": "array", "items": DOMAIN_SHAPE})


def _record(record: dict[str, Any]) -> dict[str, Any]:
    return {"purpose": record.get("Purpose"), "type": record.get("Type"), "name": record.get("Name"),
            "value": record.get("Value"), "required": record.get("Required")}


def _found(record: dict[str, Any]) -> dict[str, Any]:
    found = {"purpose": record.get("Purpose"), "type": record.get("Type"), "name": record.get("Name"),
             "required": record.get("Required"), "found": record.get("Found")}
    if record.get("Reason"):
        found["reason"] = record["Reason"]
    return found


def domain_view(domain: dict[str, Any]) -> dict[str, Any]:
    """One domain as the platform's internal route answered it."""
    check = domain.get("LastCheck")
    return {"name": domain["Name"], "verified": domain["Verified"], "status": domain["State"],
            "dns_status": domain["DnsStatus"], "usable_for": domain.get("UsableFor", []),
            "records": [_record(record) for record in domain.get("Records", [])],
            "verified_at": domain.get("VerifiedAt"), "checked_at": domain.get("CheckedAt"),
            "created_at": domain.get("CreatedAt"),
            "last_check": None if not check else {"outcome": check["Outcome"], "checked_at": check["CheckedAt"],
                                                  "records": [_found(record) for record in check.get("Records", [])]}}
