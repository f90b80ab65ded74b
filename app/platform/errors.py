"""The platform's own refusals, in the one hierarchy of :mod:`app.http.errors`.

    HttpError
    ├── Unprocessable (422)
    │   ├── AccountError               an account operation refused (tenants, API keys)
    │   │   ├── NotFoundError (404)    no such tenant or key
    │   │   ├── ConflictError (409)    a slug in use
    │   │   └── ScopeError             scopes missing or outside the catalog
    │   │   └── TreeCycle              a move below itself
    │   └── DomainError                a sender-domain operation refused
    │       └── UnknownDomain (404)
    ├── NoTenant (403), RoleRequired (403 PermissionDenied)
    ├── LastOwner (409), ResourceLimit (409 LimitExceeded), Declined, AlreadyAccepted (409)
    ├── InviteInvalid, InviteEmailMismatch (400)
    ├── Gone (410): Expired, Revoked
    └── InvitationsUnavailable, IdentityUnavailable (503)

Raised by the services (app/platform/<noun>/service.py): an HTTP surface renders them with the one
renderer, the CLI (herald/admin.py, herald/domains.py) prints their message as ``herald: <message>``.
"""

from __future__ import annotations

from app.http import errors
from models.platform.scopes import SCOPES


class AccountError(errors.Unprocessable):
    """An account operation refused; the message says why."""


class NotFoundError(errors.NotFound, AccountError):
    pass


class ConflictError(errors.Conflict, AccountError):
    pass


class ScopeError(AccountError):
    """Scopes missing or outside the catalog; the message lists the valid ones."""

    def __init__(self, message: str, valid: tuple[str, ...] | list[str] = tuple(SCOPES)):
        self.valid = tuple(valid)
        super().__init__(f"{message}; valid scopes: {', '.join(valid)}")


class DomainError(errors.Unprocessable):
    """A sender-domain operation refused; the message says why."""


class UnknownDomain(errors.NotFound, DomainError):
    pass


# --- accounts on the dashboard (docs/accounts.md) ------------------------------------------------

class NoTenant(errors.Forbidden):
    code = "NoTenant"
    message = "This user belongs to no account."


class RoleRequired(errors.PermissionDenied):
    """A member whose role does not allow the operation (the account is theirs: no secret to keep)."""

    def __init__(self, role: str):
        super().__init__(f"This operation needs the role '{role}' on the account.", details={"Role": role})


class LastOwner(errors.Conflict):
    message = "The last owner of an account cannot be removed; make someone else owner first."


class TreeCycle(AccountError):
    message = "An account cannot be moved below itself or one of its sub-accounts."


class ResourceLimit(errors.Conflict):
    """A per-account cap (for example 100 API keys) is reached: 409 ``LimitExceeded``."""

    code = "LimitExceeded"

    def __init__(self, resource: str, limit: int):
        super().__init__(f"This account has reached its limit of {limit} {resource}.",
                         details={"Resource": resource, "Limit": limit})


class InviteInvalid(errors.BadRequest):
    code = "InviteInvalid"
    message = "The invitation is not valid (unknown, used, cancelled or expired)."


class InviteEmailMismatch(errors.BadRequest):
    code = "InviteEmailMismatch"
    message = "The invitation was sent to another e-mail address."


class Declined(errors.Conflict):
    code = "Declined"
    message = "This invitation was declined."


class AlreadyAccepted(errors.Conflict):
    code = "AlreadyAccepted"
    message = "This invitation was already accepted."


class Gone(errors.HttpError):
    status = 410
    code = "Gone"
    message = "The resource is no longer available."


class Expired(Gone):
    code = "Expired"
    message = "This invitation has expired."


class Revoked(Gone):
    code = "Revoked"
    message = "This invitation was cancelled by the account."


class InvitationsUnavailable(errors.ServiceUnavailable):
    code = "InvitationsUnavailable"
    message = "Invitations cannot be read right now; try again shortly."


class InvalidScopes(errors.ValidationError):
    """A key asked for with no scopes or scopes outside the catalog, on the dashboard: 400 with the
    valid list in the message and in ``Details.ValidScopes``."""

    def __init__(self, refusal: ScopeError):
        super().__init__(refusal.message, details={"scopes": "outside the catalog or empty",
                                                   "ValidScopes": list(refusal.valid)})


class IdentityUnavailable(errors.ServiceUnavailable):
    code = "IdentityUnavailable"
    message = "The identity service cannot be reached right now; try again shortly."


# --- the operator surface (docs/operator.md) ------------------------------------------------------

class ImpersonationReadOnly(errors.ImpersonationReadOnly):
    """A write inside a support session (an operator reading an account): refused, whatever the route."""

    message = "This session is a read-only support session; end it (POST /api/admin/impersonation/end) to write."


class SecondFactorRequired(errors.Forbidden):
    """A staff member whose account has no second factor, on the operator surface (docs/operator.md)."""

    code = "SecondFactorRequired"
    message = ("Platform staff must sign in with a second factor: turn on an authenticator app "
               "(POST /api/auth/2fa/setup) or e-mailed codes, then use /api/admin.")


class SuppressedAddress(errors.Unprocessable):
    """A recipient on the platform blocklist (per recipient; a batch item error)."""

    code = "SuppressedAddress"
    message = "The recipient is blocked on this platform."
