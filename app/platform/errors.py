"""The platform's own refusals, in the one hierarchy of :mod:`app.http.errors`.

    HttpError
    ├── Unprocessable (422)
    │   ├── AccountError               an account operation refused (tenants, API keys)
    │   │   ├── NotFoundError (404)    no such tenant or key
    │   │   ├── ConflictError (409)    a slug in use
    │   │   └── ScopeError             scopes missing or outside the catalog
    │   └── DomainError                a sender-domain operation refused
    │       └── UnknownDomain (404)

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
