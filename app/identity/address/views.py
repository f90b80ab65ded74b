"""E-mail addresses as the identity API writes them."""

from __future__ import annotations

from app.http.openapi import STRING, TIMESTAMP, described, reply_of, shape
from app.identity.address.service import Address


def address_json(address: Address) -> dict:
    return {"id": address.id, "email": address.email, "primary": address.primary, "verified": address.verified,
            "verified_at": address.verified_at.isoformat() if address.verified_at else None,
            "created_at": address.created_at.isoformat()}


ADDRESS_SHAPE = shape(id=described(STRING, "The address's id."), email=described(STRING, "The address."),
                      primary=described({"type": "boolean"}, "Whether it is the primary address (the sign-in one)."),
                      verified=described({"type": "boolean"}, "Whether its link was followed."),
                      verified_at=described({"type": ["string", "null"], "format": "date-time"},
                                            "When it was verified."),
                      created_at=described(TIMESTAMP, "When it was added."))
ADDRESSES = reply_of(emails=described({"type": "array", "items": ADDRESS_SHAPE},
                                      "The person's addresses: the primary one and the recovery ones."))
