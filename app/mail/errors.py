"""The mail system's own error codes, subclasses of :mod:`app.http.errors`; every one is answered
in the mail API's envelope, exactly ``{error, message}`` (app/http/envelope.py, style ``flat``).

    Unprocessable (422)
    ├── NoSuchSenderMailbox (CaixaRemetenteInexistente)  ``from`` names no mailbox of the account (contract, rule 2)
    ├── DomainNotVerified          DNS answered without a required record (the message names which)
    └── DomainNotUsable            a mailbox on a domain the account has not verified
    Forbidden (403)
    └── TestObjectsOnly            code PermissionDenied: an sk_test_ key touches only test objects
    ServiceUnavailable (503)
    └── VerificationUnavailable    code VerificacaoIndisponivel: DNS did not answer (Retry-After)
"""

from __future__ import annotations

from app.http import errors


class NoSuchSenderMailbox(errors.Unprocessable):
    code = "CaixaRemetenteInexistente"
    message = "The from address is not a mailbox of this account; create the mailbox first."


class DomainNotVerified(errors.Unprocessable):
    code = "DomainNotVerified"
    message = "The domain's DNS records were not found."


class DomainNotUsable(errors.Unprocessable):
    code = "DomainNotVerified"
    message = "A mailbox needs a domain of this account that is verified."


class TestObjectsOnly(errors.PermissionDenied):
    message = "A test key (sk_test_) manages only test objects; sending domains are live objects."


class VerificationUnavailable(errors.VerificationUnavailable):
    message = "DNS did not answer; the domain's verification could not be concluded. Try again shortly."

    def __init__(self, message: str | None = None, *, retry_after: int = 300) -> None:
        super().__init__(message, retry_after=retry_after)
