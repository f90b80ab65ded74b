"""Custom domain rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from models.pages.site import record_name, record_value
from models.pages import CustomDomain, DomainCheck

NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
CHECK_SHAPE = {"type": ["object", "null"], "properties": {"Outcome": STRING, "Detail": STRING, "CheckedAt": TIMESTAMP}}
DOMAIN_SHAPE = shape(Id=STRING, Name=STRING, Status=STRING, Verified={"type": "boolean"},
                     Record=shape(Type=STRING, Name=STRING, Value=STRING), VerifiedAt=NULLABLE_TIME,
                     CheckedAt=NULLABLE_TIME, LastCheck=CHECK_SHAPE, CreatedAt=TIMESTAMP)
DOMAIN = reply_of(Dominio=DOMAIN_SHAPE)
DOMAINS = reply_of(Dominios={"type": "array", "items": DOMAIN_SHAPE}, NextCursor=NULLABLE_STRING,
                   HasMore={"type": "boolean"})
AUTHORIZED = reply_of(Authorized={"type": "boolean"})


def domain_view(domain: CustomDomain, check: DomainCheck | None = None) -> dict:
    return {"Id": domain.public_id, "Name": domain.name, "Status": domain.status,
            "Verified": domain.status == "verificado",
            "Record": {"Type": "TXT", "Name": record_name(domain), "Value": record_value(domain)},
            "VerifiedAt": iso(domain.verified_at), "CheckedAt": iso(domain.checked_at),
            "LastCheck": None if check is None else {"Outcome": check.outcome, "Detail": check.detail,
                                                     "CheckedAt": iso(check.checked_at)},
            "CreatedAt": iso(domain.created_at)}
