"""The contract's listing of senders: ``Domains[]`` (``Name``, ``Verified``, ``UsableFor``:
``emails/send`` while the domain may be a Source, ``DnsStatus``: ``ok`` | ``pending``) and
``Mailboxes[]`` (the mail API's, a separate system: Herald itself has none to list yet)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, reply_of, shape
from models.platform.domain import SANDBOX_DOMAIN, SenderDomain, SenderState

EMAILS_SEND = "emails/send"


def sandbox_view() -> dict[str, Any]:
    return {"Name": SANDBOX_DOMAIN, "Verified": True, "UsableFor": [EMAILS_SEND], "DnsStatus": "ok"}


def domain_view(domain: SenderDomain) -> dict[str, Any]:
    usable = domain.state() is SenderState.VERIFIED
    return {"Name": domain.name, "Verified": domain.verified, "UsableFor": [EMAILS_SEND] if usable else [],
            "DnsStatus": domain.dns_status}


def senders_view(domains: list[SenderDomain], *, sandbox: bool) -> dict[str, Any]:
    listed = [sandbox_view()] if sandbox else []
    return {"Domains": listed + [domain_view(domain) for domain in domains], "Mailboxes": []}


# The answer's shape, for the OpenAPI document (app/http/openapi.py).
SENDERS = reply_of(Domains={"type": "array", "items": shape(Name=STRING, Verified={"type": "boolean"},
                                                            UsableFor={"type": "array", "items": STRING},
                                                            DnsStatus={"enum": ["ok", "pending"]})},
                   Mailboxes={"type": "array"})
