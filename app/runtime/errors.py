"""The runtime system's own error codes, subclasses of :mod:`app.http.errors`.

    HttpError
    ├── Forbidden (403)
    │   └── CredentialRefused   a pixel credential that is not ours, rotated, disabled, or used from
    │                           a host outside the pixel's site (/collect, /replay, their preflight)
    └── TooManyRequests (429)
        └── TooManyStreams      the account already holds its cap of open live streams
"""

from __future__ import annotations

from app.http import errors


class CredentialRefused(errors.Forbidden):
    code = "PermissionDenied"
    message = "The pixel credential is not valid for this site."


class TooManyStreams(errors.Throttling):
    def __init__(self, cap: int, retry_after: int = 15) -> None:
        super().__init__(retry_after, f"This account already has {cap} live streams open; close one and retry.",
                         limit=cap)
