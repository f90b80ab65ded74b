"""Sender domains -> the dicts of the mail system's internal routes and the dashboard's /api/domains:
the domain's state, every record its owner publishes (``Records``: SPF include, DKIM, the return
path, DMARC when asked) and the last verification attempt (``LastCheck``)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from app.platform.sender.views import domain_usable_for
from models.platform.domain import DomainCheck, SenderDomain, dns_records

RECORD = shape(Purpose=STRING, Type=STRING, Name=STRING, Value=STRING, Required={"type": "boolean"})
FOUND = {"type": "object", "properties": {"Purpose": STRING, "Type": STRING, "Name": STRING,
                                          "Required": {"type": "boolean"}, "Found": {"type": ["boolean", "null"]},
                                          "Reason": STRING}}
CHECK = {"type": ["object", "null"], "properties": {"Outcome": STRING, "Records": {"type": "array", "items": FOUND},
                                                    "CheckedAt": TIMESTAMP}}
DOMAIN_SHAPE = shape(Name=STRING, Verified={"type": "boolean"}, DnsStatus={"enum": ["ok", "pending"]}, State=STRING,
                     UsableFor={"type": "array", "items": STRING}, Records={"type": "array", "items": RECORD},
                     VerifiedAt=NULLABLE_STRING, CheckedAt=NULLABLE_STRING, UnreachableSince=NULLABLE_STRING,
                     CreatedAt=TIMESTAMP, LastCheck=CHECK)
DOMAIN = reply_of(Domain=DOMAIN_SHAPE)
DOMAINS = reply_of(Domains={"type": "array", "items": DOMAIN_SHAPE})


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
