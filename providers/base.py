"""The provider interface: one small base per channel.

A provider gets an :class:`Outgoing` (everything needed to send one message to one
recipient) and returns a :class:`Receipt`, or raises one of :mod:`providers.errors`. It knows
nothing of tenants' HTTP requests. ``idempotency_key`` is the message id: a provider whose
service honours idempotency keys passes it along, so a message retried after an unknown
outcome is not sent twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from kit.egress import PROVIDERS, Policy


@dataclass(frozen=True)
class DkimKey:
    """The sender domain's DKIM signing key (the e-mail provider signs with it)."""

    domain: str
    selector: str
    private_key_pem: bytes

    def __repr__(self) -> str:  # never print the key
        return f"DkimKey({self.domain!r}, {self.selector!r})"


@dataclass(frozen=True)
class Attachment:
    """One file of an e-mail, its bytes unsealed for this attempt only."""

    filename: str
    content_type: str
    data: bytes

    def __repr__(self) -> str:  # never print the bytes
        return f"Attachment({self.filename!r}, {self.content_type!r}, {len(self.data)} bytes)"


@dataclass(frozen=True)
class Outgoing:
    message_id: str
    tenant_id: str
    channel: str
    recipient: str
    sender: str | None
    subject: str | None
    content: dict[str, Any]
    tags: dict[str, str] | None = None
    mode: str = "live"
    # E-mail: the sender domain's DKIM key. Push: the device's platform (ios, android, web) when known.
    dkim: DkimKey | None = None
    platform: str | None = None
    # E-mail: the envelope sender (MAIL FROM), a VERP address naming this message (kit/verp.py).
    return_path: str | None = None
    # E-mail: its files (``content["Attachments"]`` then lists their names, types and sizes only).
    attachments: tuple[Attachment, ...] = ()

    @property
    def idempotency_key(self) -> str:
        return self.message_id


@dataclass(frozen=True)
class Receipt:
    provider_message_id: str
    # PascalCase keys are recorded on the message's timeline (e.g. SMS "Segments"); others stay internal.
    detail: dict[str, Any] = field(default_factory=dict)


class Provider:
    key: ClassVar[str]
    channel: ClassVar[str]
    # Set by the worker (tasks/providers.py) right after making an instance. ``tenant_configured``:
    # the configuration is a tenant's, so its hosts and URLs are the tenant's choice too and go
    # through ``egress`` (kit.egress), as do the URLs that come with a message (a Web Push
    # subscription) whoever configured the provider. The defaults are the strict ones.
    tenant_configured: bool = False
    egress: Policy = PROVIDERS

    def __init__(self, config: dict[str, Any] | None = None):
        self.config = config or {}

    async def send(self, message: Outgoing) -> Receipt:  # pragma: no cover - interface
        raise NotImplementedError

    async def close(self) -> None:
        """Release connections (called at worker shutdown)."""


class EmailProvider(Provider):
    channel = "email"


class SmsProvider(Provider):
    channel = "sms"


class PushProvider(Provider):
    channel = "push"


class WhatsappProvider(Provider):
    channel = "whatsapp"
