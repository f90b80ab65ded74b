"""The pages system's own error codes, subclasses of :mod:`app.http.errors`.

    Unprocessable (422)
    ├── DomainNotVerified          the verification record is not published (Details: what to publish)
    ├── InvalidPageContent         code ValidationError: blocks refer to forms or media the account lacks
    └── UndecodableImage           code ValidationError: the bytes claim an allowed image type, do not decode as it
    Conflict (409)
    ├── SlugInUse                  code Conflict: another page (or redirect) of the account has the slug
    └── ExperimentState            code Conflict: the experiment is not in the state the operation needs
    ServiceUnavailable (503)
    ├── VerificacaoIndisponivel    DNS did not answer: nothing concluded, retry (Retry-After)
    └── GenerationUnavailable      no AI provider is configured
    UnsupportedMedia (415)         code ValidationError: not an allowlisted image type
"""

from __future__ import annotations

from app.http import errors


class DomainNotVerified(errors.Unprocessable):
    code = "DomainNotVerified"
    message = "The verification record was not found in DNS."


class InvalidPageContent(errors.Unprocessable):
    code = "ValidationError"


class SlugInUse(errors.Conflict):
    message = "Another page of this account already uses this slug on this domain."


class ExperimentState(errors.Conflict):
    pass


class VerificationUnavailable(errors.VerificationUnavailable):
    message = "DNS did not answer; the domain's verification could not be concluded. Try again shortly."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message, retry_after=30)


class GenerationUnavailable(errors.ServiceUnavailable):
    message = "AI page generation is not available: no provider is configured."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message)


class UnsupportedMedia(errors.HttpError):
    status = 415
    code = "ValidationError"
    message = "Only PNG, JPEG, GIF and WebP images are accepted."


class UndecodableImage(errors.Unprocessable):
    message = "The file does not decode as the image type it claims."


class PreviewExpired(errors.HttpError):
    """A signed preview link past its expiry (app/pages/page/preview.py)."""
    status = 410
    code = "PreviewExpired"
    message = "This preview link has expired; open the page's editor for a new one."
