"""Tortoise models of the platform system (database ``herald_platform``)."""

from models.platform.api_key import ApiKey
from models.platform.tenant import Tenant
from models.platform.usage import UsageCounter

__all__ = ["ApiKey", "Tenant", "UsageCounter"]
