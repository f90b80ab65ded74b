"""Sending domains through the platform, which owns them (app/mail/platform.py): add, list, read,
verify, remove. An ``sk_test_`` key reads them but changes none (they are live objects).

Verification follows the contract's rules: DNS did not answer, 503 ``VerificacaoIndisponivel``
with Retry-After; DNS answered without a required record, 422 ``DomainNotVerified`` naming each
one; the attempt is recorded by the platform either way. A name an account outside this one's tree
verified first is the platform's 409 ``Conflict``.
"""

from __future__ import annotations

from typing import Any

from app.http.services import ServiceClient
from app.mail import errors as mail_errors
from app.mail.caller import Caller
from app.mail.platform import call, domains_path


def _writable(caller: Caller) -> None:
    if not caller.live:
        raise mail_errors.TestObjectsOnly()


async def list_domains(platform: ServiceClient, caller: Caller) -> list[dict[str, Any]]:
    answer = await call(platform, "GET", domains_path(caller.tenant_id))
    return answer.body["Domains"]


async def get_domain(platform: ServiceClient, caller: Caller, name: str) -> dict[str, Any]:
    answer = await call(platform, "GET", domains_path(caller.tenant_id, name))
    return answer.body["Domain"]


async def add_domain(platform: ServiceClient, caller: Caller, name: str, dmarc: bool) -> tuple[dict[str, Any], bool]:
    """(the domain with every record to publish, whether it was added now)."""
    _writable(caller)
    answer = await call(platform, "POST", domains_path(caller.tenant_id), json={"Name": name, "Dmarc": dmarc})
    return answer.body["Domain"], answer.status == 201


async def verify_domain(platform: ServiceClient, caller: Caller, name: str) -> dict[str, Any]:
    """The domain, verified; otherwise the refusal the attempt's outcome calls for."""
    _writable(caller)
    answer = await call(platform, "POST", domains_path(caller.tenant_id, name, "verify"))
    outcome = answer.body["Outcome"]
    if outcome == "unreachable":
        raise mail_errors.VerificationUnavailable(retry_after=int(answer.body.get("RetryAfter") or 300))
    if outcome != "verified":
        missing = answer.body.get("Missing") or []
        named = "; ".join(f"{record['Type']} {record['Name']} ({record['Purpose']}: "
                          f"{record.get('Reason', 'not found')})" for record in missing)
        raise mail_errors.DomainNotVerified(f"Not found as published: {named}." if named else None)
    return answer.body["Domain"]


async def remove_domain(platform: ServiceClient, caller: Caller, name: str) -> None:
    _writable(caller)
    await call(platform, "DELETE", domains_path(caller.tenant_id, name))
