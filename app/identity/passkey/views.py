"""A passkey as the identity API writes it."""

from __future__ import annotations

from models.identity import PasskeyCredential


def passkey_json(row: PasskeyCredential) -> dict:
    return {"id": row.public_id, "name": row.name, "created_at": row.created_at.isoformat(),
            "last_used_at": row.last_used_at.isoformat() if row.last_used_at else None,
            "backed_up": row.backed_up}
