"""The identity server's own error codes, on top of :mod:`app.http.errors`.

    HttpError
    ├── InvalidRequest (400)          invalid JSON, unknown field, empty body, body above 1 MiB
    ├── InvalidInput (400)            a field is missing or its value is not acceptable
    ├── TwoFactorMissing (400)        the account has a second factor and none was given
    ├── DesafioExpirado (400)         a passkey challenge is unknown, used or expired
    ├── InvalidCredentials (401)      e-mail and password do not match
    ├── MissingToken / InvalidToken / ExpiredToken (401)   session and service credentials
    ├── TwoFactorFailed / TwoFactorExpired (401)           second step
    │   └── TwoFactorSuperseded / TwoFactorCodeExpired (401) an e-mailed code replaced by a newer one / too old
    ├── PasskeyRecusada (401)         the authenticator's answer did not verify
    ├── ReauthRequired (403)          an account-takeover write on a session not re-authenticated lately
    ├── NotFound (404), Conflict (409)
    ├── WeakPassword / UndeclaredRole (422)
    ├── TooManyAttempts (429)         throttles; carries Retry-After
    ├── ServiceUnavailable (503), InternalError (500)
    └── OAuthError (400 / 401)        an RFC 6749 error of ``/token`` (``invalid_grant``, ...)
        └── RefreshTokenReused        a used refresh token presented again (its family is revoked)

Services and surfaces raise these; :mod:`app.http.envelope` renders them in the lowercase
envelope ``{"error": {"type", "code", "message"}, "RequestId"}``. The one exception is
:class:`OAuthError`: ``/token`` answers the RFC 6749 body ``{"error", "error_description"}``, and
:func:`app.identity.oauth.v1.oauth_error` is the one place that renders it (should one escape
elsewhere, the envelope still renders it as the 4xx it is, never a 500). ``/userinfo`` and
``/logout`` answer RFC 6750 ``invalid_token`` bodies, rendered in oauth/v1.py as well.
"""

from __future__ import annotations

from app.http.errors import (  # noqa: F401 - re-exported for the identity handlers
    BadRequest,
    Conflict,
    Forbidden,
    HttpError,
    InvalidRequest,
    NotFound,
    ServiceUnavailable,
    TooManyRequests,
    Unauthorized,
    Unprocessable,
)


class InvalidInput(BadRequest):
    code = "InvalidInput"
    message = "A field of the request is missing or not valid."


class TwoFactorMissing(BadRequest):
    code = "TwoFactorMissing"
    message = "This account has two-factor authentication; a code is required."


class ChallengeExpired(BadRequest):
    code = "DesafioExpirado"
    message = "The passkey challenge is unknown, already used or expired; start again."


class InvalidCredentials(Unauthorized):
    code = "InvalidCredentials"
    message = "The e-mail or password is not correct."


class MissingToken(Unauthorized):
    code = "MissingToken"
    message = "An Authorization: Bearer token is required."


class InvalidToken(Unauthorized):
    code = "InvalidToken"
    message = "The token is not valid."


class ExpiredToken(Unauthorized):
    code = "ExpiredToken"
    message = "The session has expired or was revoked."


class TwoFactorFailed(Unauthorized):
    code = "TwoFactorFailed"
    message = "The two-factor code is not correct."


class TwoFactorSuperseded(TwoFactorFailed):
    code = "TwoFactorSuperseded"
    message = "A newer code was sent; use the code from the most recent e-mail."


class TwoFactorCodeExpired(TwoFactorFailed):
    code = "TwoFactorCodeExpired"
    message = "The code has expired; ask for a new one."


class TwoFactorExpired(Unauthorized):
    code = "TwoFactorExpired"
    message = "The two-factor challenge expired; log in again."


class PasskeyRejected(Unauthorized):
    code = "PasskeyRecusada"
    message = "The passkey could not be verified."


class ReauthRequired(Forbidden):
    code = "ReauthRequired"
    message = "This change needs a recent sign-in: confirm it with POST /v1/auth/reauth, then try again."


class WeakPassword(Unprocessable):
    code = "WeakPassword"
    message = "The password does not meet the password policy."


class UndeclaredRole(Unprocessable):
    code = "UndeclaredRole"
    message = "The product does not declare this role."


class TooManyAttempts(TooManyRequests):
    code = "TooManyAttempts"
    message = "Too many attempts; wait before trying again."


class OAuthError(HttpError):
    """An error of the OAuth token endpoint, in RFC 6749 terms: ``error`` is the registered code
    (``invalid_request``, ``invalid_client``, ``invalid_grant``, ``invalid_scope``,
    ``unsupported_grant_type``), ``description`` the ``error_description``."""

    def __init__(self, error: str, description: str, status: int = 400):
        self.status = status
        self.code = error
        super().__init__(description)
        self.error, self.description = error, description


class RefreshTokenReused(OAuthError):
    """A refresh token used once already: someone else may hold it. The caller revokes its
    ``family`` (every token rotated from the same grant)."""

    def __init__(self, family: str):
        super().__init__("invalid_grant", "the refresh token was already used; its family is revoked")
        self.family = family
