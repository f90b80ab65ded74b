"""The platform blocklist (issue 16): addresses, domains and phone numbers no account may send
to, and the suggestions (from hard bounces and complaints across accounts) staff decide on."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id


class BlockKind(StrEnum):
    ADDRESS = "address"
    DOMAIN = "domain"
    PHONE = "phone"


class SuggestionState(StrEnum):
    UNDECIDED = "undecided"
    APPLIED = "applied"
    DISMISSED = "dismissed"


def new_block_id() -> str:
    return public_id("blk")


def new_suggestion_id() -> str:
    return public_id("bls")


class BlockEntry(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_block_id)
    kind = fields.CharField(max_length=10)
    value = fields.CharField(max_length=320)  # normalized: lowercased address/domain, E.164 phone
    reason = fields.CharField(max_length=500)
    created_by = fields.CharField(max_length=40)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "block_entries"
        app = "platform"
        unique_together = (("kind", "value"),)


class BlockSuggestion(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_suggestion_id)
    kind = fields.CharField(max_length=10)
    value = fields.CharField(max_length=320)
    reason = fields.CharField(max_length=500)
    source = fields.CharField(max_length=20)  # "staff" or "scheduler"
    evidence = fields.IntField(default=0)  # hard bounces and complaints counted by the job
    state = fields.CharField(max_length=10, default=SuggestionState.UNDECIDED.value)
    decided_by = fields.CharField(max_length=40, null=True)
    decided_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "block_suggestions"
        app = "platform"
        unique_together = (("kind", "value"),)


# --- normalizing and matching (the send path, the delivery actor and the routes all use these) -------

PHONE_JUNK = str.maketrans("", "", " -().")


def normalize(kind: str, value: str) -> str | None:
    """The stored form of an entry's value, or None when it is not one of ``kind``."""
    value = value.strip()
    if kind == BlockKind.ADDRESS:
        local, at, domain = value.lower().rpartition("@")
        return f"{local}@{domain}" if at and local and "." in domain and " " not in value else None
    if kind == BlockKind.DOMAIN:
        domain = value.lower().lstrip("@").rstrip(".")
        labels = domain.split(".")
        ok = len(labels) >= 2 and all(label and len(label) <= 63 and label.replace("-", "").isalnum()
                                      for label in labels)
        return domain if ok and len(domain) <= 253 else None
    if kind == BlockKind.PHONE:
        phone = value.translate(PHONE_JUNK)
        digits = phone[1:] if phone.startswith("+") else phone
        return f"+{digits}" if digits.isdigit() and 6 <= len(digits) <= 15 else None
    return None


def candidates(recipient: str) -> list[tuple[str, str]]:
    """The (kind, value) pairs an entry may name to block ``recipient``: an e-mail address is blocked
    by itself, by its domain and by any parent domain; anything else is read as a phone number (a
    push token or device id matches nothing)."""
    address = recipient.strip()
    if "<" in address and address.endswith(">"):  # "Name <a@b.c>"
        address = address[address.rfind("<") + 1:-1]
    if "@" in address:
        found = [(BlockKind.ADDRESS.value, address.lower())]
        labels = address.lower().rpartition("@")[2].split(".")
        found += [(BlockKind.DOMAIN.value, ".".join(labels[i:])) for i in range(len(labels) - 1)]
        return found
    phone = normalize(BlockKind.PHONE, address)
    return [(BlockKind.PHONE.value, phone)] if phone else []


# --- suggestions from hard bounces and complaints across accounts (schedules/platform/blocklist.py) ----------

SUGGEST_WINDOW_DAYS = 7
SUGGEST_MIN_ACCOUNTS = 2  # an address bounced or complained about by this many accounts
SUGGEST_DOMAIN_ADDRESSES = 5  # a domain with this many such addresses, across this many accounts

SUGGEST_SQL = """
WITH hits AS (
    SELECT lower(m.recipient) AS address, m.channel, m.tenant_id, m.status
    FROM messages m
    WHERE m.status IN ('bounced', 'complained') AND m.mode = 'live'
      AND m.updated_at > now() - make_interval(days => $1)
), by_value AS (
    SELECT CASE WHEN channel = 'email' THEN 'address' ELSE 'phone' END AS kind, address AS value,
           count(*) AS evidence, count(DISTINCT tenant_id) AS accounts,
           bool_or(status = 'complained') AS complained
    FROM hits WHERE channel IN ('email', 'sms', 'whatsapp')
    GROUP BY 1, 2 HAVING count(DISTINCT tenant_id) >= $2
    UNION ALL
    SELECT 'domain', split_part(address, '@', 2), count(*), count(DISTINCT tenant_id), bool_or(status = 'complained')
    FROM hits WHERE channel = 'email' AND position('@' IN address) > 0
    GROUP BY 1, 2 HAVING count(DISTINCT address) >= $3 AND count(DISTINCT tenant_id) >= $2
)
INSERT INTO block_suggestions (public_id, kind, value, reason, source, evidence, state, created_at)
SELECT 'bls_' || substr(md5(gen_random_uuid()::text), 1, 24), v.kind, v.value,
       CASE WHEN v.complained THEN 'hard bounces and complaints' ELSE 'hard bounces' END
           || ' from ' || v.accounts || ' accounts in ' || $1 || ' days',
       'scheduler', v.evidence, 'undecided', now()
FROM by_value v
WHERE v.value <> '' AND NOT EXISTS (SELECT 1 FROM block_entries e WHERE e.kind = v.kind AND e.value = v.value)
ON CONFLICT (kind, value) DO UPDATE SET evidence = EXCLUDED.evidence, reason = EXCLUDED.reason
    WHERE block_suggestions.state = 'undecided' AND block_suggestions.source = 'scheduler'
RETURNING kind, value
"""


async def suggest(conn) -> list[tuple[str, str]]:
    """Record (or refresh) the suggestions the recent traffic makes; a dismissed or applied one stays decided."""
    rows = await conn.execute_query_dict(SUGGEST_SQL, [SUGGEST_WINDOW_DAYS, SUGGEST_MIN_ACCOUNTS,
                                                       SUGGEST_DOMAIN_ADDRESSES])
    return [(row["kind"], row["value"]) for row in rows]
