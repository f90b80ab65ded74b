"""The platform's answers about a sending domain -> the mail API's dicts (snake_case)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape

_PURPOSE = described(STRING, "What the record is for: `spf`, `dkim`, `return-path` or `dmarc`.")
_TYPE = described(STRING, "The DNS record's type (`TXT`, `CNAME`).")
_NAME = described(STRING, "The DNS name to publish it at.")
_REQUIRED = described({"type": "boolean"}, "Whether verification needs it (SPF and DKIM); the others are reported.")
RECORD = shape(purpose=_PURPOSE, type=_TYPE, name=_NAME, value=described(STRING, "The value to publish."),
               required=_REQUIRED)
FOUND = {"type": "object", "properties": {
    "purpose": _PURPOSE, "type": _TYPE, "name": _NAME, "required": _REQUIRED,
    "found": described({"type": ["boolean", "null"]}, "Whether the check found it as it should be."),
    "reason": described(STRING, "Why it was not, when it was not.")}}
DOMAIN_SHAPE = shape(
    name=described(STRING, "The domain."), verified=described({"type": "boolean"}, "Whether it is verified."),
    status=described({"enum": ["verified", "unverified", "unconfirmed"]}, "Its state (`unconfirmed`: verified, "
                     "but its DNS has not answered for 72 hours since its last conclusive check)."),
    dns_status=described({"enum": ["ok", "pending"]}, "Whether its required records are in place."),
    usable_for=described({"type": "array", "items": STRING}, "Where it may be the sender (`emails/send` ...)."),
    records=described({"type": "array", "items": RECORD}, "The DNS records to publish."),
    verified_at=described(NULLABLE_STRING, "When it was verified."),
    checked_at=described(NULLABLE_STRING, "When its records were last checked."),
    created_at=described(TIMESTAMP, "When it was added."),
    last_check=described({"type": ["object", "null"], "properties": {
        "outcome": described(STRING, "`verified`, `failed` (a required record missing or different) or "
                                     "`unreachable` (DNS did not answer: nothing concluded)."),
        "checked_at": described(TIMESTAMP, "When."),
        "records": described({"type": "array", "items": FOUND}, "What was found, per record.")}},
        "The last verification attempt, or null."))
DOMAIN = reply_of(domain=described(DOMAIN_SHAPE, "The domain."))
DOMAINS = reply_of(domains=described({"type": "array", "items": DOMAIN_SHAPE}, "The account's sending domains."))


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
