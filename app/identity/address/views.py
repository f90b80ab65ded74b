"""E-mail addresses as the identity API writes them."""

from __future__ import annotations

from app.http.openapi import STRING, TIMESTAMP, reply_of, shape
from app.identity.address.service import Address


def address_json(address: Address) -> dict:
    return {"id": address.id, "email": address.email, "primary": address.primary, "verified": address.verified,
            "verified_at": address.verified_at.isoformat() if address.verified_at else None,
            "created_at": address.created_at.isoformat()}


ADDRESS_SHAPE = shape(id=STRING, email=STRING, primary={"type": "boolean"}, verified={"type": "boolean"},
                      verified_at={"type": ["string", "null"], "format": "date-time"}, created_at=TIMESTAMP)
ADDRESSES = reply_of(emails={"type": "array", "items": ADDRESS_SHAPE})
