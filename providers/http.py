"""What the HTTP providers share: one reused httpx client per provider instance, and one mapping
from an HTTP answer to the error hierarchy of :mod:`providers.errors`:

- connection failures, timeouts, 408, 429 and 5xx -> TransientProviderError (``Retry-After`` honoured);
- 401 and 403 -> ProviderConfigError (our credentials are wrong: no message of this configuration goes);
- any other 4xx -> PermanentProviderError (this message will never be accepted).

A provider looks at the body first for answers that mean more (a dead push token), then calls
:func:`raise_for_answer`.
"""

from __future__ import annotations

from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError

DEFAULT_TIMEOUT = 15.0


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
    text = response.text.strip().replace("\n", " ")
    return f"HTTP {response.status_code}: {text[:limit]}" if text else f"HTTP {response.status_code}"


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

    @property
    def http(self) -> httpx.AsyncClient:
        if self._client is None:
            timeout = float(self.config.get("timeout", DEFAULT_TIMEOUT))
            options: dict[str, Any] = {"timeout": timeout}
            if self.http2:
                # HTTP/2 only: negotiated with ALPN over TLS, prior knowledge over plain http (tests).
                options.update(http1=False, http2=True)
            if self.config.get("ca_file"):
                import ssl

                options["verify"] = ssl.create_default_context(cafile=self.config["ca_file"])
            self._client = httpx.AsyncClient(**options)
        return self._client

    async def post(self, url: str, provider: str, **kwargs: Any) -> httpx.Response:
        try:
            return await self.http.post(url, **kwargs)
        except httpx.TimeoutException as error:
            raise TransientProviderError(f"{provider} timed out: {error!r}") from error
        except httpx.TransportError as error:
            raise TransientProviderError(f"{provider} unreachable: {error!r}") from error

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
