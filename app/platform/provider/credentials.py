"""Keys checked when saved: before an account's relay configuration is stored, one cheap
authenticated call to the relay's API with it, through the egress (kit/egress.py: a tenant's
``base_url`` is a URL like any other it gives), at most :data:`TIMEOUT` seconds. The calls and what
each refusal names are in docs/relays.md ("Keys checked when saved"): Postmark ``GET /server``,
Mailgun ``GET /v3/domains/<domain>``, SendGrid ``GET /v3/scopes``, Resend ``GET /domains``, SES
``GetAccount``. A key the relay knows but restricts is taken (Resend's ``restricted_api_key``, a key
with sending access only; SES's ``AccessDeniedException``: the key needs only ``ses:SendEmail``).

A refusal is 422 naming the field, and nothing is saved; so is any other answer but 2xx (the
``base_url`` is then not the relay's API). A relay that cannot be reached, times out, or answers
429 or 5xx is 503 with ``Retry-After``: nothing is saved either (credentials that were never
checked are not kept as if they had been); the account tries again. The HTTP side never imports
the providers (setup.cfg's contracts), so the default endpoints are written here too;
tests/platform/test_provider_keys.py checks they are the providers' own.
"""

from __future__ import annotations

import base64
import logging
from typing import Any
from urllib.parse import quote

import httpx

from app.http import errors
from kit import aws_sigv4, egress

log = logging.getLogger("herald.providers")

TIMEOUT = 5.0
RETRY_AFTER = 30
DEFAULT_BASE_URLS = {"postmark": "https://api.postmarkapp.com", "mailgun": "https://api.mailgun.net",
                     "sendgrid": "https://api.sendgrid.com", "resend": "https://api.resend.com"}
# SES's error types (``x-amzn-ErrorType``) -> the field they refuse; any other 400-403 names the secret.
SES_ERRORS = {"UnrecognizedClientException": "Settings.access_key_id",
              "InvalidClientTokenId": "Settings.access_key_id",
              "InvalidSignatureException": "Secrets.secret_access_key",
              "SignatureDoesNotMatch": "Secrets.secret_access_key",
              "ExpiredTokenException": "Secrets.session_token"}


def checked_relays() -> tuple[str, ...]:
    return ("ses", *DEFAULT_BASE_URLS)


def _request(key: str, config: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """The relay's cheap authenticated call: (URL, headers)."""
    if key == "ses":
        region = config["region"]
        url = f"{str(config.get('base_url') or f'https://email.{region}.amazonaws.com').rstrip('/')}/v2/email/account"
        headers = aws_sigv4.sign("GET", url, {}, b"", access_key=config["access_key_id"],
                                 secret_key=config["secret_access_key"], region=region, service="ses",
                                 session_token=config.get("session_token"))
        headers.pop("Host")  # httpx sends the same one
        return url, headers
    base = str(config.get("base_url") or DEFAULT_BASE_URLS[key]).rstrip("/")
    if key == "postmark":
        return f"{base}/server", {"X-Postmark-Server-Token": config["server_token"], "Accept": "application/json"}
    if key == "mailgun":
        basic = base64.b64encode(f"api:{config['api_key']}".encode()).decode()
        return f"{base}/v3/domains/{quote(config['domain'], safe='')}", {"Authorization": f"Basic {basic}"}
    return f"{base}/{'v3/scopes' if key == 'sendgrid' else 'domains'}", {"Authorization": f"Bearer {config['api_key']}"}


UNAVAILABLE = "unavailable"


def _verdict(key: str, response: httpx.Response) -> str | None:
    """None when the answer takes the credentials; :data:`UNAVAILABLE` when the relay could not
    say (429, 5xx); else the field it refuses (``Settings.base_url``: not the relay's API)."""
    status = response.status_code
    if 200 <= status < 300:
        return None
    if status == 429 or status >= 500:
        return UNAVAILABLE
    if key == "ses":
        kind = _ses_error(response)
        if kind == "AccessDeniedException":
            return None
        if status in (400, 401, 403):
            return SES_ERRORS.get(kind, "Secrets.secret_access_key")
    elif status in (401, 403):
        if key == "resend" and _json_field(response, "name") == "restricted_api_key":
            return None
        return "Secrets.server_token" if key == "postmark" else "Secrets.api_key"
    elif key == "mailgun" and status == 404:
        return "Settings.domain"
    return "Settings.base_url"


def _ses_error(response: httpx.Response) -> str:
    kind = response.headers.get("x-amzn-errortype") or _json_field(response, "__type") or _json_field(response, "code")
    return kind.split(":", 1)[0].rsplit("#", 1)[-1]


def _json_field(response: httpx.Response, name: str) -> str:
    try:
        value = response.json().get(name)
    except (ValueError, AttributeError):
        return ""
    return value if isinstance(value, str) else ""


async def check(channel: str, key: str, config: dict[str, Any], *, allow_loopback: bool) -> None:
    """Raise 422 when the relay refuses these credentials, 503 when it could not say; nothing for
    other providers (their configuration is checked by the catalog alone)."""
    if channel != "email" or key not in checked_relays():
        return
    url, headers = _request(key, config)
    policy = egress.PROVIDERS.with_loopback(allow_loopback)
    try:
        async with egress.client(policy, timeout=TIMEOUT) as http:
            response = await http.get(url, headers=headers)
            await response.aread()
    except egress.UnsafeTarget as error:  # the catalog checked the URL; its name resolved elsewhere
        raise errors.Unprocessable(f"Settings.base_url {error}.", details={"Settings.base_url": str(error)}) from None
    except (egress.EgressError, httpx.HTTPError, OSError) as error:
        log.warning("checking the %s credentials: %s: %s", key, type(error).__name__, error)
        raise _unavailable(key) from None
    field = _verdict(key, response)
    if field == UNAVAILABLE:
        log.warning("checking the %s credentials: HTTP %s", key, response.status_code)
        raise _unavailable(key)
    if field is not None:
        reason = f"not {key}'s API" if field == "Settings.base_url" else f"refused by {key}"
        raise errors.Unprocessable(f"{field}: {reason} (HTTP {response.status_code}).", details={field: reason})


def _unavailable(key: str) -> errors.ServiceUnavailable:
    return errors.ServiceUnavailable(f"{key} could not be asked whether these credentials are valid; nothing was "
                                     "saved. Try again shortly.", retry_after=RETRY_AFTER)
