"""The crm system's own error codes, subclasses of :mod:`app.http.errors`.

    HttpError
    ├── Unprocessable (422 ValidationError)
    │   └── InvalidContact      an e-mail or phone that is not one, or no identifier at all
    ├── Conflict (409)
    │   └── IdentityClash        identifiers of one request that name two different contacts
    └── ServiceUnavailable (503)
        └── ExportUnavailable    the export's activity record could not be written: nothing exported
"""

from __future__ import annotations

from app.http import errors


class InvalidContact(errors.Unprocessable):
    """An e-mail or phone that is not valid, or a contact with no identifier (422)."""


class IdentityClash(errors.Conflict):
    code = "Conflict"


class ExportUnavailable(errors.ServiceUnavailable):
    def __init__(self) -> None:
        super().__init__("The export could not be recorded, so nothing was exported; try again shortly.",
                         retry_after=5)
