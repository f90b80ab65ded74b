"""Tortoise models of the platform system (database ``herald_platform``)."""

from models.platform.api_idempotency import ApiIdempotencyRecord
from models.platform.api_key import ApiKey
from models.platform.audit import AdminAudit
from models.platform.blocklist import BlockEntry, BlockSuggestion
from models.platform.datacenter_asn import DatacenterAsn
from models.platform.device import Device
from models.platform.domain import DomainCheck, SenderDomain
from models.platform.flag import TenantFlag
from models.platform.idempotency import IdempotencyRecord
from models.platform.invitation import Invitation
from models.platform.member import Membership
from models.platform.message import Message, MessageEvent
from models.platform.outbox import OutboxEntry
from models.platform.platform_alert import PlatformAlertEvent, PlatformAlertRule
from models.platform.provider_config import ProviderConfig
from models.platform.registration import AccessRequest, DomainClaim
from models.platform.report import ReportCounter, ReportDailyCounter, ReportDailyFold
from models.platform.request_log import RequestLog
from models.platform.returns import UnmatchedReturn
from models.platform.staff import StaffMember, SupportMarker
from models.platform.support_session import SupportRead, SupportSession
from models.platform.suppression import Suppression
from models.platform.template import Template
from models.platform.tenant import Tenant
from models.platform.usage import UsageCounter
from models.platform.webhook import WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent

__all__ = ["ApiKey", "IdempotencyRecord", "Message", "MessageEvent", "OutboxEntry", "SenderDomain", "Suppression",
           "Tenant", "UsageCounter", "Template", "ReportCounter", "ReportDailyCounter", "ReportDailyFold", "Device", "DomainCheck", "ProviderConfig", "RequestLog",
           "WebhookAttempt", "WebhookDelivery", "WebhookEndpoint", "WebhookEvent", "ApiIdempotencyRecord", "TenantFlag",
           "Invitation", "Membership", "AccessRequest", "DomainClaim", "SupportSession", "SupportRead",
           "AdminAudit", "BlockEntry", "BlockSuggestion", "DatacenterAsn", "StaffMember", "SupportMarker",
           "PlatformAlertEvent", "PlatformAlertRule", "UnmatchedReturn"]
