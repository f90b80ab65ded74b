"""Who acts in the mail API: the account, and whether on live or test objects (set by app/mail/gate.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Caller:
    """``live`` is False for an ``sk_test_`` key: it sees and makes test mailboxes only, and its mail
    goes to the sinks."""

    tenant_id: str
    live: bool
    key_id: str | None = None
    user_id: str | None = None

    @property
    def mode(self) -> str:
        return "live" if self.live else "test"
