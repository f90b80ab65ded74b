"""Mail from the internet (the receiving listener, port 25 in production): only for us, never relayed.

At RCPT each address is one of:

- ``bounce-...@bounces.<MAIL_DOMAIN>`` or ``@bounces.<an account's domain>`` (docs/bounces.md): a
  return (a DSN or a complaint) for the platform's returns intake, ``POST /internal/v1/returns`` (which reads the VERP address itself);
- a live mailbox, at its address or on its domain's receiving subdomain (``inbound.<domain>``), as the
  mail system answers ``GET /internal/v1/received/recipient``;
- anything else: 550 5.1.1, so no one relays through Herald.

At DATA the message goes to each: the mail system stores it (sealed, with its authentication
results), the platform takes returns. A callee down answers 451 (the sender keeps the message and
retries; the mail system's de-duplication keeps a retry from storing it twice). The returns route
missing (404: not deployed) is a 451 too, so no return is lost."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from app.smtp.results import judge
from app.smtp.upstream import TRY_LATER, Refusal, Upstream

RECIPIENT = "/internal/v1/received/recipient"
STORE = "/internal/v1/received"
RETURNS = "/internal/v1/returns"
BOUNCE_PREFIX = "bounce-"
NO_SUCH_USER = "550 5.1.1 No such mailbox here; this server does not relay"


@dataclass(frozen=True)
class Target:
    address: str
    kind: str  # "mailbox" or "return"


async def target_of(upstream: Upstream, address: str) -> Target:
    local, _, domain = address.lower().rpartition("@")
    if not local or not domain or len(address) > 254:
        raise Refusal("553 5.1.3 Malformed address")
    # bounces.<MAIL_DOMAIN>, or an account's bounces.<domain> whose CNAME points here: the platform
    # checks the VERP tag, and keeps what does not match as unmatched (bounded), acting on nothing.
    if domain.startswith("bounces."):
        if local.startswith(BOUNCE_PREFIX):
            return Target(address, "return")
        raise Refusal(NO_SUCH_USER)
    answer = await upstream.call(upstream.mail, "GET", RECIPIENT, params={"address": address})
    if answer.ok:
        return Target(address, "mailbox")
    raise Refusal(NO_SUCH_USER)


async def deliver(upstream: Upstream, targets: list[Target], mail_from: str, raw: bytes, client_ip: str,
                  helo: str) -> str:
    """The DATA reply: 250 when every recipient has it (or refused it for good, some took it)."""
    encoded = base64.b64encode(raw).decode()
    results = None
    stored, refused = 0, []
    for target in targets:
        if target.kind == "return":
            answer = await upstream.call(upstream.platform, "POST", RETURNS,
                                         json={"Recipient": target.address, "Message": encoded})
            if answer.status == 404:  # the intake is not there (yet): keep the return at the sender's
                raise Refusal(TRY_LATER)
        else:
            if results is None:
                results = await judge(raw, upstream.settings.dns_nameservers, client_ip, mail_from, helo)
            answer = await upstream.call(upstream.mail, "POST", STORE, json={
                "Recipient": target.address, "MailFrom": mail_from or "", "Message": encoded,
                "Spf": results.spf, "Dkim": results.dkim, "Dmarc": results.dmarc})
        if answer.ok:
            stored += 1
        else:
            refused.append(answer.error_code or str(answer.status))
    if stored:
        return f"250 2.0.0 Accepted for {stored} recipient(s)"
    if refused and all(code == "MailboxFull" for code in refused):
        raise Refusal("552 5.2.2 Mailbox full")
    raise Refusal(NO_SUCH_USER)
