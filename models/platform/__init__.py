"""Tortoise models of the platform system (database ``herald_platform``)."""

from models.platform.api_key import ApiKey
from models.platform.domain import SenderDomain, Suppression, WhatsappTemplate
from models.platform.idempotency import IdempotencyRecord
from models.platform.message import Message, MessageEvent
from models.platform.outbox import OutboxEntry
from models.platform.tenant import Tenant
from models.platform.usage import UsageCounter

__all__ = ["ApiKey", "IdempotencyRecord", "Message", "MessageEvent", "OutboxEntry", "SenderDomain", "Suppression",
           "Tenant", "UsageCounter", "WhatsappTemplate"]
