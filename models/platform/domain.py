"""Sender domains: what a message is checked against before it goes out (suppressions: models/platform/suppression.py).

A sender domain gets an RSA-2048 DKIM key pair when it is added (app/platform/domain/service.py;
the private key sealed with a key derived from SECRET_KEY, see :mod:`kit.sealing`) and the DNS
records its owner publishes: SPF and DKIM (both required for verification), DMARC (optional) and a
return-path CNAME (recommended). Every verification attempt (:func:`check_domain`) is a :class:`DomainCheck`
row, written by :func:`record_check`.

Verification state of a domain (docs/providers.md):
- verified: ``verified_at`` set (the last conclusive check found SPF and DKIM);
- unverified: never verified, or a conclusive check found the records gone (``verified_at`` cleared);
- unconfirmed: verified, but the last attempts could not reach DNS and the last conclusive check
  is older than VERIFICATION_VALIDITY: new sends answer 503 VerificacaoIndisponivel, queued
  messages still go (the key signing them has not been shown to be withdrawn).
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from enum import StrEnum

from tortoise import fields
from tortoise.models import Model
from tortoise.transactions import in_transaction

from kit.actors import Actor
from kit.dns import Lookup, Unreachable
from kit.sealing import PLATFORM
from models.outbox import insert_sql, request_id
from models.platform.suppression import Suppression  # noqa: F401  (its home before it had one)

DKIM_KEY = "platform:dkim-private-key"

# Test-mode keys of every tenant may send from this domain; their messages only reach the sinks.
SANDBOX_DOMAIN = "sandbox.herald.test"


# A verified domain whose DNS could not be reached stays usable for this long after its last
# conclusive check; after that new sends get 503 VerificacaoIndisponivel until DNS answers.
VERIFICATION_VALIDITY = timedelta(hours=72)
# Retry-After of that 503: the re-check interval of a domain whose DNS was unreachable.
UNREACHABLE_RECHECK_SECONDS = 300
RETURN_PATH_LABEL = "bounces"


class SenderState(StrEnum):
    VERIFIED = "verified"
    UNVERIFIED = "unverified"
    UNCONFIRMED = "unconfirmed"


class CheckOutcome(StrEnum):
    VERIFIED = "verified"        # SPF and DKIM found as published
    FAILED = "failed"            # DNS answered: a required record is missing or different
    UNREACHABLE = "unreachable"  # DNS did not answer (timeout, SERVFAIL): nothing concluded
    CONFLICT = "conflict"        # SPF and DKIM found, but an account outside this one's tree verified it first


class SenderDomain(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="domains", on_delete=fields.CASCADE)
    name = fields.CharField(max_length=253)
    verified_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    # DKIM: selector and key pair (public key as the DKIM TXT p= value; private key sealed PEM).
    dkim_selector = fields.CharField(max_length=63, default="", db_default="")
    dkim_public_key = fields.TextField(null=True)
    dkim_private_key = fields.TextField(null=True)
    # Publish (and report) a DMARC record too.
    dmarc = fields.BooleanField(default=False, db_default=False)
    # Last check that reached DNS, and since when DNS has not answered (null: it answered last time).
    checked_at = fields.DatetimeField(null=True)
    unreachable_since = fields.DatetimeField(null=True)

    class Meta:
        table = "sender_domains"
        app = "platform"
        unique_together = (("tenant", "name"),)

    @property
    def verified(self) -> bool:
        return self.verified_at is not None

    @property
    def dns_status(self) -> str:
        return "ok" if self.verified else "pending"

    def state(self, now: datetime | None = None) -> SenderState:
        if self.verified_at is None:
            return SenderState.UNVERIFIED
        now = now or datetime.now(timezone.utc)
        last_conclusive = self.checked_at or self.verified_at
        if self.unreachable_since is not None and now - last_conclusive > VERIFICATION_VALIDITY:
            return SenderState.UNCONFIRMED
        return SenderState.VERIFIED

    def signing_key(self) -> "DkimKey | None":
        if not self.dkim_private_key or not self.dkim_selector:
            return None
        return DkimKey(self.name, self.dkim_selector, PLATFORM.unseal_text(DKIM_KEY, self.dkim_private_key))


class DomainCheck(Model):
    """One verification attempt of a sender domain and what it found."""

    id = fields.BigIntField(primary_key=True)
    domain = fields.ForeignKeyField("platform.SenderDomain", related_name="checks", on_delete=fields.CASCADE)
    outcome = fields.CharField(max_length=12)
    # Per record: {"Type", "Name", "Found": bool, "Required": bool, "Reason"?}
    detail: dict = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "sender_domain_checks"
        app = "platform"
        indexes = (("domain_id", "id"),)


@dataclass(frozen=True)
class DkimKey:
    domain: str
    selector: str
    private_key_pem: bytes = b""

    def __repr__(self) -> str:  # never print the key
        return f"DkimKey({self.domain!r}, {self.selector!r})"


def generate_dkim_key() -> tuple[str, bytes]:
    """A new RSA-2048 pair: (public key as base64 DER for the DKIM p= tag, private key PEM)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
    der = private.public_key().public_bytes(serialization.Encoding.DER,
                                            serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(der).decode("ascii"), pem


def new_selector(now: datetime | None = None) -> str:
    return f"herald{(now or datetime.now(timezone.utc)):%Y%m}{secrets.token_hex(2)}"


def seal_dkim_key(private_key_pem: bytes) -> str:
    return PLATFORM.seal_text(DKIM_KEY, private_key_pem)


def dns_records(domain: SenderDomain, mail_domain: str) -> list[dict]:
    """What the domain's owner publishes. SPF and DKIM are required for verification."""
    records = [
        {"Purpose": "spf", "Type": "TXT", "Name": domain.name, "Value": f"v=spf1 include:_spf.{mail_domain} ~all",
         "Required": True},
        {"Purpose": "dkim", "Type": "TXT", "Name": f"{domain.dkim_selector}._domainkey.{domain.name}",
         "Value": f"v=DKIM1; k=rsa; p={domain.dkim_public_key}", "Required": True},
        {"Purpose": "return-path", "Type": "CNAME", "Name": f"{RETURN_PATH_LABEL}.{domain.name}",
         "Value": f"{RETURN_PATH_LABEL}.{mail_domain}", "Required": False},
    ]
    if domain.dmarc:
        records.append({"Purpose": "dmarc", "Type": "TXT", "Name": f"_dmarc.{domain.name}",
                        "Value": f"v=DMARC1; p=none; rua=mailto:dmarc@{mail_domain}", "Required": False})
    return records


async def sender_domain_verified(tenant_pk: int, mode: str, address: str) -> bool:
    """Whether ``address`` (lower case) may be the Source of a message of this tenant and key mode."""
    domain = address.rpartition("@")[2]
    if mode == "test" and domain == SANDBOX_DOMAIN:
        return True
    return await SenderDomain.filter(tenant_id=tenant_pk, name=domain, verified_at__isnull=False).exists()


async def sender_domain_state(tenant_pk: int, mode: str, address: str) -> SenderState:
    """Like :func:`sender_domain_verified`, telling apart a verification that cannot be confirmed now."""
    name = address.rpartition("@")[2]
    if mode == "test" and name == SANDBOX_DOMAIN:
        return SenderState.VERIFIED
    domain = await SenderDomain.get_or_none(tenant_id=tenant_pk, name=name)
    return domain.state() if domain is not None else SenderState.UNVERIFIED


async def signing_key_for(tenant_pk: int, address: str) -> DkimKey | None:
    """The DKIM key of the sender's domain (None for the sandbox or a domain without one)."""
    domain = await SenderDomain.get_or_none(tenant_id=tenant_pk, name=address.rpartition("@")[2].lower())
    return domain.signing_key() if domain is not None else None


# --- verification: what counts as published, and recording one attempt --------------------------

def _tags(value: str) -> dict[str, str]:
    tags = {}
    for part in value.split(";"):
        name, _, tag_value = part.strip().partition("=")
        if name:
            tags[name.strip().lower()] = "".join(tag_value.split())
    return tags


def record_found(record: dict, values: list[str], domain: SenderDomain, mail_domain: str) -> bool:
    """Whether the ``values`` DNS holds at a record of :func:`dns_records` publish it."""
    purpose = record["Purpose"]
    if purpose == "spf":
        return any(v.lower().startswith("v=spf1") and f"include:_spf.{mail_domain}" in v.lower().split()
                   for v in values)
    if purpose == "dkim":
        return any(_tags(v).get("p") == domain.dkim_public_key for v in values)
    if purpose == "dmarc":
        return any(v.strip().lower().startswith("v=dmarc1") for v in values)
    return record["Value"].lower() in values


# A domain that lost its verification: its queued e-mail goes back to delivery, whose re-check fails it.
_REDELIVER = insert_sql(Actor.EMAIL_DELIVER, """(SELECT id FROM messages
WHERE tenant_id = $1 AND channel = 'email' AND status = 'queued'
  AND (lower(sender) LIKE '%@' || $2 OR lower(sender) LIKE '%@' || $2 || '>')) AS queued""",
                         request="$3::text") + " RETURNING id"


# Whether an account outside ``$1``'s tree (the accounts under its root) has ``$2`` verified.
_OWNED_ELSEWHERE = """
WITH RECURSIVE up(id, parent_id) AS (
  SELECT id, parent_id FROM tenants WHERE id = $1
  UNION ALL SELECT t.id, t.parent_id FROM tenants t JOIN up ON t.id = up.parent_id
), tree(id) AS (
  SELECT id FROM up WHERE parent_id IS NULL
  UNION ALL SELECT t.id FROM tenants t JOIN tree ON t.parent_id = tree.id
)
SELECT 1 AS owned FROM sender_domains
WHERE name = $2 AND verified_at IS NOT NULL AND tenant_id NOT IN (SELECT id FROM tree) LIMIT 1
"""


async def owned_elsewhere(conn, tenant_pk: int, name: str) -> bool:
    """Whether ``name`` is verified by an account outside ``tenant_pk``'s tree: the first account to
    verify a domain owns it; adding it elsewhere blocks nobody, verifying it elsewhere is refused."""
    return bool(await conn.execute_query_dict(_OWNED_ELSEWHERE, [tenant_pk, name]))


async def record_check(domain: SenderDomain, outcome: CheckOutcome, found: list[dict]) -> DomainCheck:
    """Record one attempt and move the domain's state; returns the attempt. A domain whose records
    are found while an account outside its tree holds it verified is recorded ``conflict`` (not
    verified): verifications of one name are serialized by a transaction-scoped advisory lock, so
    two trees can never both hold it."""
    now = datetime.now(timezone.utc)
    async with in_transaction("platform") as conn:
        # Lock the row: a re-check and `herald domain verify` may run at once.
        current = await SenderDomain.filter(id=domain.id).select_for_update().using_db(conn).first()
        lost = False
        if outcome is CheckOutcome.VERIFIED:
            await conn.execute_query("SELECT pg_advisory_xact_lock(hashtext($1))", [f"sender-domain:{domain.name}"])
            if await owned_elsewhere(conn, domain.tenant_id, domain.name):
                outcome = CheckOutcome.CONFLICT
        if outcome is CheckOutcome.VERIFIED:
            updates = {"verified_at": current.verified_at or now, "checked_at": now, "unreachable_since": None}
        elif outcome in (CheckOutcome.FAILED, CheckOutcome.CONFLICT):
            lost = current.verified_at is not None
            updates = {"verified_at": None, "checked_at": now, "unreachable_since": None}
        else:
            updates = {"unreachable_since": current.unreachable_since or now}
        await SenderDomain.filter(id=domain.id).using_db(conn).update(**updates)
        detail: dict = {"Records": found}
        if outcome is CheckOutcome.CONFLICT:
            detail["OwnedElsewhere"] = True
        if lost:
            rows = await conn.execute_query_dict(_REDELIVER, [domain.tenant_id, domain.name, request_id()])
            detail["LostVerification"] = True
            detail["QueuedMessagesRechecked"] = len(rows)
        check = await DomainCheck.create(domain_id=domain.id, outcome=outcome.value, detail=detail, using_db=conn)
    for name, value in updates.items():
        setattr(domain, name, value)
    return check


async def check_domain(domain: SenderDomain, *, lookup: Lookup, mail_domain: str) -> DomainCheck:
    """One verification attempt of ``domain`` (the one check of the ``domains.verify`` actor and of
    ``herald domain verify``), recorded; returns the attempt. ``lookup`` is :func:`kit.dns.lookup_with`.

    Required records: SPF (a ``v=spf1`` TXT on the domain that includes ``_spf.<MAIL_DOMAIN>``) and
    DKIM (the TXT at ``<selector>._domainkey.<domain>`` whose ``p=`` is the domain's public key).
    DMARC and the return-path CNAME are looked up and reported, never required; what counts as
    found is :func:`models.platform.domain.record_found`.

    Outcomes: ``verified`` (both found: ``verified_at`` set); ``failed`` (DNS answered and a required
    record is missing or different: ``verified_at`` cleared; a domain that was verified has *lost*
    verification, and its queued messages are handed to delivery again, whose re-check fails them);
    ``unreachable`` (a timeout or SERVFAIL: nothing concluded, ``unreachable_since`` set);
    ``conflict`` (both found, but an account outside this one's tree verified the name first: treated
    as ``failed``). The attempt is recorded by :func:`models.platform.domain.record_check`.
    """
    found: list[dict] = []
    unreachable: str | None = None
    for record in dns_records(domain, mail_domain):
        entry = {"Purpose": record["Purpose"], "Type": record["Type"], "Name": record["Name"],
                 "Required": record["Required"]}
        try:
            values = await lookup(record["Name"], record["Type"])
        except Unreachable as error:
            entry.update(Found=None, Reason=str(error))
            if record["Required"]:
                unreachable = str(error)
        else:
            entry["Found"] = record_found(record, values, domain, mail_domain)
            if not entry["Found"]:
                entry["Reason"] = "not published" if not values else "published with another value"
        found.append(entry)
    if unreachable is not None:
        outcome = CheckOutcome.UNREACHABLE
    elif all(entry["Found"] for entry in found if entry["Required"]):
        outcome = CheckOutcome.VERIFIED
    else:
        outcome = CheckOutcome.FAILED
    return await record_check(domain, outcome, found)
