"""What the HTTP providers share: one reused httpx client per provider instance, and one mapping
from an HTTP answer to the error hierarchy of :mod:`providers.errors`:

- connection failures, timeouts, 408, 429 and 5xx -> TransientProviderError (``Retry-After`` honoured);
- 401 and 403 -> ProviderConfigError (our credentials are wrong: no message of this configuration goes);
- any other 4xx -> PermanentProviderError (this message will never be accepted).

A provider looks at the body first for answers that mean more (a dead push token), then calls
:func:`raise_for_answer`. What a remote server wrote never goes into an error's text (it becomes
the message's ``FailureReason``, which the tenant reads): only the status and codes Herald parsed;
the body is logged for the operator.

Where the URLs come from decides the client (see :attr:`providers.base.Provider.tenant_configured`):
the operator's own configuration gets a plain client; a tenant's goes through :mod:`kit.egress`
(https on port 443 to public addresses only, no redirects, no proxy, a capped answer), and so does
every URL that comes with a message (a Web Push subscription).
"""

from __future__ import annotations

import logging
import ssl
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from kit import egress
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError

log = logging.getLogger("herald.providers")

DEFAULT_TIMEOUT = 15.0
# A tenant's configuration cannot hold a worker longer than this per request.
MAX_TENANT_TIMEOUT = 30.0


def retry_after(response: httpx.Response) -> float | None:
    raw = response.headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, (moment - datetime.now(timezone.utc)).total_seconds())


def describe(response: httpx.Response, limit: int = 300) -> str:
    """``HTTP <status>`` for an error's text; the start of the body goes to the operator's log only."""
    try:
        text = response.text.strip().replace("\n", " ")[:limit]
    except (UnicodeDecodeError, LookupError, httpx.ResponseNotRead):
        text = "(unreadable)"
    if text:
        log.info("HTTP %d from %s: %s", response.status_code, _host_of(response), text)
    return f"HTTP {response.status_code}"


def _host_of(response: httpx.Response) -> str:
    try:
        return response.request.url.host
    except RuntimeError:  # a response made without a request (tests)
        return "?"


def raise_for_answer(response: httpx.Response, provider: str) -> None:
    status = response.status_code
    if status < 300:
        return
    message = f"{provider} answered {describe(response)}"
    if status in (408, 425, 429) or status >= 500:
        raise TransientProviderError(message, retry_after=retry_after(response))
    if status in (401, 403):
        raise ProviderConfigError(message)
    raise PermanentProviderError(message)


class HttpProvider:
    """Mixin: ``self.http`` is an httpx.AsyncClient made on first use and closed with the provider."""

    http2 = False
    _client: httpx.AsyncClient | None = None

    def egress_policy(self) -> egress.Policy | None:
        """The policy this provider's requests go through; None: the operator's configuration, trusted."""
        return self.egress if self.tenant_configured else None

    @property
    def http(self) -> httpx.AsyncClient:
        if self._client is None:
            policy = self.egress_policy()
            timeout = float(self.config.get("timeout", DEFAULT_TIMEOUT))
            options: dict[str, Any] = {}
            if self.http2:
                # HTTP/2 only: negotiated with ALPN over TLS, prior knowledge over plain http (tests).
                options.update(http1=False, http2=True)
            if self.config.get("ca_file"):
                if self.tenant_configured:
                    # A path on the worker's disk: the operator's to choose, never a tenant's.
                    raise ProviderConfigError("ca_file can only be set in the platform's provider configuration")
                options["verify"] = ssl.create_default_context(cafile=self.config["ca_file"])
            if policy is None:
                self._client = httpx.AsyncClient(timeout=timeout, **options)
            else:
                self._client = egress.client(policy, timeout=min(max(timeout, 1.0), MAX_TENANT_TIMEOUT), **options)
        return self._client

    async def post(self, url: str, provider: str, *, unsafe: type[Exception] = ProviderConfigError,
                   **kwargs: Any) -> httpx.Response:
        """POST and read the answer. ``unsafe``: what a URL refused by the egress policy raises
        (a configuration error, unless the URL came with the message)."""
        try:
            return await self.http.post(url, **kwargs)
        except egress.UnsafeTarget as error:
            raise unsafe(f"{provider}: {error}") from error
        except egress.RefusedReply as error:
            raise PermanentProviderError(f"{provider}: {error}") from error
        except (httpx.InvalidURL, httpx.UnsupportedProtocol) as error:
            raise unsafe(f"{provider}: the URL is not valid ({error})") from error
        except httpx.TimeoutException as error:
            raise TransientProviderError(f"{provider} timed out: {type(error).__name__}") from error
        except (httpx.TransportError, ConnectionError) as error:
            raise TransientProviderError(f"{provider} unreachable: {error!r}") from error

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
