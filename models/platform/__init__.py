"""Tortoise models of the platform system (database ``herald_platform``)."""

from models.platform.api_key import ApiKey
from models.platform.device import Device
from models.platform.domain import DomainCheck, SenderDomain, Suppression, WhatsappTemplate
from models.platform.idempotency import IdempotencyRecord
from models.platform.message import Message, MessageEvent
from models.platform.outbox import OutboxEntry
from models.platform.provider_config import ProviderConfig
from models.platform.request_log import RequestLog
from models.platform.tenant import Tenant
from models.platform.usage import UsageCounter
from models.platform.webhook import WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent

__all__ = ["ApiKey", "IdempotencyRecord", "Message", "MessageEvent", "OutboxEntry", "SenderDomain", "Suppression",
           "Tenant", "UsageCounter", "WhatsappTemplate", "Device", "DomainCheck", "ProviderConfig", "RequestLog",
           "WebhookAttempt", "WebhookDelivery", "WebhookEndpoint", "WebhookEvent"]
