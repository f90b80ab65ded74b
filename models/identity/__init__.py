"""Tortoise models of the identity system (its own database and connection)."""

from models.identity.addresses import UserEmail
from models.identity.authz import AccessGrant, AuthzDecision, Product, TenantProduct
from models.identity.factors import EmailCode, EmailFactor, PasskeyChallenge, PasskeyCredential, RecoveryCode, TotpFactor, TotpStatus
from models.identity.oauth import AuthorizationCode, OAuthClient, RefreshToken
from models.identity.email import IdentityEmail
from models.identity.events import EventKind, SecurityEvent
from models.identity.outbox import OutboxEntry
from models.identity.sessions import KeyStatus, Session, SigningKey, SupportSeat
from models.identity.users import EmailToken, EmailTokenPurpose, User

__all__ = [
    "AccessGrant", "AuthorizationCode", "AuthzDecision", "EmailCode", "EventKind", "SecurityEvent", "UserEmail", "EmailFactor", "EmailToken", "EmailTokenPurpose", "KeyStatus",
    "OAuthClient", "IdentityEmail", "OutboxEntry", "PasskeyChallenge", "PasskeyCredential", "Product", "RecoveryCode",
    "RefreshToken", "Session", "SigningKey", "SupportSeat", "TenantProduct", "TotpFactor", "TotpStatus", "User",
]
