"""Custom domain rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from models.pages.site import record_name, record_value
from models.pages import CustomDomain, DomainCheck

NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
_TIME = "(RFC 3339)"
CHECK_SHAPE = {"type": ["object", "null"], "properties": {
    "Outcome": described(STRING, "What DNS said: `verified` (the record was found), `absent` or `unreachable`."),
    "Detail": described(STRING, "What was found, or why it could not be read."),
    "CheckedAt": described(TIMESTAMP, f"When it was checked {_TIME}.")}}
DOMAIN_SHAPE = shape(
    Id=described(STRING, "The domain's id (`dom_...`)."),
    Name=described(STRING, "The host (`www.example.com`)."),
    Status=described(STRING, "`nao_verificado` or `verificado`."),
    Verified=described({"type": "boolean"}, "Whether it is verified: the account's pages are served on it only then."),
    Record=described(shape(Type=described(STRING, "`TXT`."),
                           Name=described(STRING, "Where to publish it: `_herald-verify.<host>`."),
                           Value=described(STRING, "What to publish: `herald-verify=<token>`.")),
                     "The DNS record that proves the account owns the host."),
    VerifiedAt=described(NULLABLE_TIME, f"When it was verified {_TIME}, or null."),
    CheckedAt=described(NULLABLE_TIME, f"When it was last checked {_TIME}, or null."),
    LastCheck=described(CHECK_SHAPE, "The last verification attempt, or null when none yet."),
    CreatedAt=described(TIMESTAMP, f"When it was added {_TIME}."))
DOMAIN = reply_of(Dominio=described(DOMAIN_SHAPE, "The custom domain."))
DOMAINS = reply_of(Dominios=described({"type": "array", "items": DOMAIN_SHAPE}, "The custom domains, newest first."),
                   NextCursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
                   HasMore=described({"type": "boolean"}, "Whether there is a next page."))
AUTHORIZED = reply_of(Authorized=described({"type": "boolean"}, "Whether a certificate may be issued for the host: "
                                                                 "true only for a verified custom domain."))


def domain_view(domain: CustomDomain, check: DomainCheck | None = None) -> dict:
    return {"Id": domain.public_id, "Name": domain.name, "Status": domain.status,
            "Verified": domain.status == "verificado",
            "Record": {"Type": "TXT", "Name": record_name(domain), "Value": record_value(domain)},
            "VerifiedAt": iso(domain.verified_at), "CheckedAt": iso(domain.checked_at),
            "LastCheck": None if check is None else {"Outcome": check.outcome, "Detail": check.detail,
                                                     "CheckedAt": iso(check.checked_at)},
            "CreatedAt": iso(domain.created_at)}
