"""Sender domains -> the dicts of the mail system's internal routes and the dashboard's /api/domains:
the domain's state, every record its owner publishes (``Records``: SPF include, DKIM, the return
path, DMARC when asked) and the last verification attempt (``LastCheck``)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from app.platform.sender.views import domain_usable_for
from models.platform.domain import DomainCheck, SenderDomain, dns_records

BOOLEAN = {"type": "boolean"}
_PURPOSE = described(STRING, "What the record is for: spf, dkim, return-path or dmarc.")
_TYPE = described(STRING, "The DNS record type: TXT or CNAME.")
_NAME = described(STRING, "The DNS name the record is published at.")
_REQUIRED = described(BOOLEAN, "Whether verification needs it (SPF and DKIM do).")
RECORD = shape(Purpose=_PURPOSE, Type=_TYPE, Name=_NAME,
               Value=described(STRING, "The value to publish."), Required=_REQUIRED)
FOUND = {"type": "object", "properties": {
    "Purpose": _PURPOSE, "Type": _TYPE, "Name": _NAME, "Required": _REQUIRED,
    "Found": described({"type": ["boolean", "null"]}, "Whether the record was found as expected; null when DNS "
                                                      "did not answer."),
    "Reason": described(STRING, "Why it was not found: not published, published with another value, or the "
                                "DNS error.")}}
CHECK = {"type": ["object", "null"], "properties": {
    "Outcome": described(STRING, "verified, failed (a required record missing or different), unreachable (DNS "
                                 "did not answer) or conflict (an account outside this one's tree verified it)."),
    "Records": described({"type": "array", "items": FOUND}, "What the attempt found, record by record."),
    "CheckedAt": described(TIMESTAMP, "When the attempt ran.")}}
DOMAIN_SHAPE = shape(
    Name=described(STRING, "The domain name."),
    Verified=described(BOOLEAN, "Whether its SPF and DKIM records were found (it has been verified)."),
    DnsStatus=described({"enum": ["ok", "pending"]}, "ok when verified, pending otherwise."),
    State=described({"enum": ["verified", "unverified", "unconfirmed"]},
                    "verified, unverified, or unconfirmed (verified, but DNS has not answered for over 72 hours)."),
    UsableFor=described({"type": "array", "items": STRING},
                        "Where it may be the sender: emails/send while verified, empty otherwise."),
    Records=described({"type": "array", "items": RECORD},
                      "The DNS records its owner publishes (SPF, DKIM, the return path, DMARC when asked)."),
    VerifiedAt=described(NULLABLE_STRING, "When it became verified; null when it is not."),
    CheckedAt=described(NULLABLE_STRING, "When a check last reached DNS; null before the first."),
    UnreachableSince=described(NULLABLE_STRING, "Since when DNS has not answered its checks; null when it answered "
                                                "last time."),
    CreatedAt=described(TIMESTAMP, "When it was added."),
    LastCheck=described(CHECK, "The last verification attempt; null before the first."))
DOMAIN = reply_of(Domain=described(DOMAIN_SHAPE, "The sender domain."))
DOMAINS = reply_of(Domains=described({"type": "array", "items": DOMAIN_SHAPE}, "The account's sender domains."))

def check_view(check: DomainCheck | None) -> dict[str, Any] | None:
    if check is None:
        return None
    return {"Outcome": check.outcome, "Records": check.detail.get("Records", []), "CheckedAt": iso(check.created_at)}


def domain_view(domain: SenderDomain, mail_domain: str, check: DomainCheck | None = None) -> dict[str, Any]:
    return {"Name": domain.name, "Verified": domain.verified, "DnsStatus": domain.dns_status,
            "State": domain.state().value, "UsableFor": domain_usable_for(domain),
            "Records": dns_records(domain, mail_domain) if domain.dkim_public_key else [],
            "VerifiedAt": iso(domain.verified_at), "CheckedAt": iso(domain.checked_at),
            "UnreachableSince": iso(domain.unreachable_since), "CreatedAt": iso(domain.created_at),
            "LastCheck": check_view(check)}
