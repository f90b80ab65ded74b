"""The dashboard's own codes (contract, "Errors") and the relay of an identity server refusal.

The identity server answers in its own envelope and codes; :func:`refusal` turns a 4xx of it
into the platform's error of the same meaning, so nothing but our hierarchy reaches the client.
"""

from __future__ import annotations

from typing import Any, Mapping

from app.http import errors

# The identity server's 401s about the credential itself: to the dashboard they are one
# AuthorizationError (the reason a token is not accepted is not told apart).
TOKEN_CODES = frozenset({"MissingToken", "InvalidToken", "ExpiredToken"})


class UseEmailsEndpoint(errors.BadRequest):
    code = "UseEmailsEndpoint"
    message = "The e-mail address is not changed here; use the e-mail addresses endpoint."


class TooManyAttempts(errors.TooManyRequests):
    code = "TooManyAttempts"
    message = "Too many attempts; wait before trying again."


class LogoutFailed(errors.UpstreamError):
    code = "LogoutFailed"
    message = "The sign-out could not be confirmed; try again."


class ReauthRequired(errors.Forbidden):
    """The write needs a recent re-authentication; ``Details`` says how (:func:`reauth_details`)."""
    code = "ReauthRequired"
    message = "This change needs a recent re-authentication: confirm it with POST /api/me/reautenticar."


class ReauthUnavailable(errors.Forbidden):
    """The identity server could not say whether the session re-authenticated lately: refused."""
    code = "ReauthIndisponivel"
    message = "Re-authentication cannot be checked right now; try again shortly."


class OwnSessionRequired(errors.Forbidden):
    """The person's own session is needed: this session is serving a support session (an operator
    reading another account), and the person's security trail is not part of that view."""
    code = "SessaoNecessaria"
    message = "This needs your own session: end the support session first."


class AddressTakesNoMail(errors.Unprocessable):
    code = "EnderecoNaoRecebe"
    message = "This address takes no verification e-mail: it is verified already."


class SendingRefused(errors.UpstreamError):
    code = "EnvioRecusado"
    message = "The verification e-mail could not be handed over for sending; try again."


class PasskeyUnavailable(errors.ServiceUnavailable):
    code = "PasskeyIndisponivel"
    message = "Passkey sign-in is unavailable right now; sign in with the password or try again shortly."


def reauth_details(details: Mapping[str, Any] | None) -> dict:
    """The identity server's re-authentication needs, as the dashboard's ``Error.Details``:
    ``metodos_aceitos``, ``metodos`` (``metodo``, ``disponivel``, ``motivo``), ``destinos``
    (``email_id``, ``mascarado``, ``primario``; when ``email_otp`` is accepted) and
    ``validade_segundos`` (how long a re-authentication holds)."""
    details = details or {}
    rows = [row for row in details.get("methods") or () if isinstance(row, dict)]
    out = {"metodos_aceitos": [m for m in details.get("accepted") or () if isinstance(m, str)],
           "metodos": [{"metodo": row.get("method"), "disponivel": row.get("available") is True,
                        "motivo": row.get("reason")} for row in rows],
           "validade_segundos": details.get("max_age_seconds")}
    if "email_otp" in out["metodos_aceitos"]:
        out["destinos"] = [{"email_id": row.get("email_id"), "mascarado": row.get("masked"),
                            "primario": row.get("primary") is True}
                           for row in details.get("destinations") or () if isinstance(row, dict)]
    return out


class CrossOriginRefused(errors.PermissionDenied):
    message = "This write does not come from an allowed origin of the dashboard (Origin header)."


class IdentityRefusal(errors.HttpError):
    """A 4xx of the identity server with its own meaning (TwoFactorFailed, InvalidCredentials ...),
    relayed with its status and code."""

    def __init__(self, status: int, code: str, message: str | None, details: Mapping[str, Any] | None = None):
        self.status = status
        self.code = code
        super().__init__(message, details=details)


def _envelope(body: Any) -> dict:
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return body["error"]
    return {}


def refusal(status: int, body: Any, headers: Mapping[str, str]) -> errors.HttpError:
    """The platform's error for a 4xx answer of the identity server."""
    envelope = _envelope(body)
    code = envelope.get("code") if isinstance(envelope.get("code"), str) else None
    message = envelope.get("message") if isinstance(envelope.get("message"), str) else None
    details = envelope.get("details") if isinstance(envelope.get("details"), dict) else None
    if status == 401 and (code in TOKEN_CODES or code is None):
        return errors.AuthorizationError("The session is not valid or has ended.")
    if status == 429:
        try:
            wait = max(1, int(headers.get("retry-after", "1")))
        except ValueError:
            wait = 1
        error = TooManyAttempts(wait, message)
        error.details = {"RetryAfterSeconds": wait}
        return error
    if status == 400 and code in (None, "InvalidInput"):
        return errors.ValidationError(message, details=details)
    if status == 403 and code == "ReauthRequired":
        return ReauthRequired(details=reauth_details(details))
    if status == 404:
        return errors.NotFound(message)
    if status == 409:
        return errors.Conflict(message)
    if status == 422:
        return errors.Unprocessable(message, details=details)
    return IdentityRefusal(status, code or "InvalidRequest", message, details)
