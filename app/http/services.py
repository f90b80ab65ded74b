"""The one HTTP client for calls from one Herald system to another.

Why one: systems call each other on hot paths (the platform asks the identity server about every
dashboard request; crm, pages and runtime ask it for decisions and keys) and every such call needs
the same care. Written once here, these rules hold for every caller:

- the service credential (``Authorization: Bearer SERVICE_TOKEN``) is sent unless the caller
  forwards a user's token instead (or sends none, for public routes such as the JWKS);
- connect and read timeouts are bounded, and no proxy or certificate setting is taken from the
  environment (``trust_env=False``): a system reaches another at the URL the settings name;
- a circuit breaker per callee: after :data:`FAILURES_TO_OPEN` consecutive failures every call
  fails fast for :data:`COOL_DOWN_SECONDS`, then one probe goes through (half-open); a dead
  callee then costs its callers microseconds, not a connect timeout per request;
- failures map to the one error tree, with the real reason only in the log.

What a caller gets::

    2xx, 4xx                            ServiceResponse(status, body, headers): the caller maps 4xx
    401 to the service credential       errors.AuthorizationError (401); logged as a configuration
                                        error (contract, "Authentication" 4)
    unreachable, timeout, 5xx, another  errors.UpstreamError (502, generic message), or the class the
    status, a 2xx that is not JSON,     caller names with ``outage=`` (errors.ServiceUnavailable: 503,
    breaker open                        with Retry-After)

One :class:`ServiceClient` (one connection pool) per process and callee: ``services(app).client("identity")``.
A server calls :func:`install` while it is built, so the clients close when it stops.
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
import time
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable, Mapping

import hmac

import httpx
from sanic import Request, Sanic

from app.http import errors
from kit.settings import Settings

log = logging.getLogger("herald.services")

FAILURES_TO_OPEN = 5
COOL_DOWN_SECONDS = 10.0
DEFAULT_TIMEOUT = httpx.Timeout(5.0, connect=2.0)
LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20, keepalive_expiry=30)
# Streams (the console's live-view relay) hold a connection as long as a tab stays open: they get a
# pool of their own, so open tabs never make the ordinary calls wait, and a bound of their own (the
# runtime's per-person and per-account caps come first; past this one a new stream is an outage).
STREAM_LIMITS = httpx.Limits(max_connections=500, max_keepalive_connections=0)
HEADERS = {"Accept": "application/json", "User-Agent": "herald-services"}

Outage = type[errors.HttpError]

# A bearer credential as RFC 6750 writes it (b64token), bounded. A user's token that is not one is
# refused before it is sent: a line break in a header would be our own malformed request.
BEARER_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]{1,2048}=*")


def outage_error(outage: Outage, retry_after: float | None = None) -> errors.HttpError:
    """The caller's outage error; a 503 always says when to come back (contract, "Errors" rule 2)."""
    error = outage()
    if error.status == 503:
        error.headers.setdefault("Retry-After", str(max(1, math.ceil(retry_after or 1))))
    return error


class Breaker:
    """closed --(N consecutive failures)--> open --(cool-down over)--> half-open: one probe goes
    out; its success closes the breaker, its failure opens it for another cool-down.

    A callee that answers at all (2xx, 4xx) is alive: only unreachable, timed-out and 5xx calls
    count as failures. One breaker per callee and process, so no coordination is needed.
    """

    def __init__(self, failures: int = FAILURES_TO_OPEN, cool_down: float = COOL_DOWN_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.threshold = failures
        self.cool_down = cool_down
        self.clock = clock
        self.failures = 0
        self.opened_at: float | None = None
        self.probing = False

    @property
    def state(self) -> str:
        if self.opened_at is None:
            return "closed"
        return "open" if self.probing or self.retry_after() > 0 else "half-open"

    def retry_after(self) -> float:
        """Seconds until a probe may go out (0 when closed or cooled down)."""
        if self.opened_at is None:
            return 0.0
        return max(0.0, self.opened_at + self.cool_down - self.clock())

    def admit(self) -> bool:
        """May a call go out now? After the cool-down only the first caller (the probe) may."""
        if self.opened_at is None:
            return True
        if self.probing or self.retry_after() > 0:
            return False
        self.probing = True
        return True

    def succeeded(self) -> None:
        self.failures, self.opened_at, self.probing = 0, None, False

    def failed(self) -> bool:
        """Record a failure; True when this one opened (or re-opened) the breaker."""
        self.failures += 1
        self.probing = False
        if self.opened_at is not None or self.failures >= self.threshold:
            self.opened_at = self.clock()
            return True
        return False

    def abandoned(self) -> None:
        """A call ended with no verdict (cancelled): a probe slot it held is free again."""
        self.probing = False


@dataclass(frozen=True)
class ServiceResponse:
    """A 2xx or 4xx answer of the callee: status, decoded JSON (None when empty) and headers."""

    status: int
    body: Any
    headers: Mapping[str, str]

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def error_code(self) -> str | None:
        """The callee's error code, from either envelope ({"error": {"code"}} or {"Error": {"Code"}})."""
        if not isinstance(self.body, dict):
            return None
        envelope = self.body.get("error", self.body.get("Error"))
        if isinstance(envelope, dict):
            code = envelope.get("code", envelope.get("Code"))
            return code if isinstance(code, str) else None
        return envelope if isinstance(envelope, str) else None  # OAuth bodies: {"error": "invalid_grant"}


class ServiceClient:
    """Calls one callee system: ``await client.get("/v1/...")``, ``post``, ``request``."""

    def __init__(self, system: str, base_url: str, token: str | None, *,
                 timeout: httpx.Timeout | float = DEFAULT_TIMEOUT, breaker: Breaker | None = None):
        self.system = system
        self.base_url = base_url.rstrip("/")
        self.breaker = breaker or Breaker()
        self._token = token
        self._timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self._http: httpx.AsyncClient | None = None
        self._stream_http: httpx.AsyncClient | None = None

    def __repr__(self) -> str:  # never the token
        return f"ServiceClient({self.system!r}, {self.base_url!r}, breaker={self.breaker.state})"

    def _client(self) -> httpx.AsyncClient:
        # Made on first use, inside the running loop (a server builds its clients before it has one).
        if self._http is None:
            self._http = httpx.AsyncClient(base_url=self.base_url, timeout=self._timeout, limits=LIMITS,
                                           trust_env=False, follow_redirects=False, headers=HEADERS)
        return self._http

    def _streams(self) -> httpx.AsyncClient:
        if self._stream_http is None:
            self._stream_http = httpx.AsyncClient(base_url=self.base_url, timeout=self._timeout, limits=STREAM_LIMITS,
                                                  trust_env=False, follow_redirects=False, headers=HEADERS)
        return self._stream_http

    async def aclose(self) -> None:
        for client in (self._http, self._stream_http):
            if client is not None:
                await client.aclose()
        self._http = self._stream_http = None

    async def __aenter__(self) -> ServiceClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def get(self, path: str, **options: Any) -> ServiceResponse:
        return await self.request("GET", path, **options)

    async def post(self, path: str, **options: Any) -> ServiceResponse:
        return await self.request("POST", path, **options)

    async def request(self, method: str, path: str, *, json: Any = None,
                      params: Mapping[str, Any] | None = None, headers: Mapping[str, str] | None = None,
                      user_token: str | None = None, send_credential: bool = True,
                      outage: Outage = errors.UpstreamError,
                      answered: frozenset[str] = frozenset(), files: Mapping[str, Any] | None = None,
                      raw: bool = False, timeout: httpx.Timeout | None = None) -> ServiceResponse:
        """One call. ``user_token`` forwards a user's credential instead of the service credential;
        ``send_credential=False`` sends none; ``outage`` is the error raised when the callee fails.
        ``answered``: error codes of a 5xx that is the callee's own answer, not its failure (the
        platform's 503 ``VerificacaoIndisponivel``): returned as a 4xx is, for the caller to pass on.
        ``files``: a multipart body (httpx's ``files``); ``raw``: a success's body as bytes (a CSV), not JSON;
        ``timeout``: this call's own, for one the callee needs longer to answer (a file read whole)."""
        as_service = send_credential and user_token is None
        sent = dict(headers or {})
        if user_token is not None:
            if not BEARER_TOKEN.fullmatch(user_token):
                raise errors.AuthorizationError("The credential is not valid.")
            sent["Authorization"] = f"Bearer {user_token}"
        elif as_service:
            if not self._token:
                log.error("configuration error: SERVICE_TOKEN is not set; cannot call %s %s %s",
                          self.system, method, path)
                raise errors.AuthorizationError("The request could not be authorized.")
            sent["Authorization"] = f"Bearer {self._token}"

        if not self.breaker.admit():
            log.debug("%s breaker open: %s %s failed fast", self.system, method, path)
            raise outage_error(outage, self.breaker.retry_after())
        probe = self.breaker.probing  # admitted while probing: this call is the half-open probe
        try:
            response = await self._client().request(method, path, json=json, params=params, headers=sent, files=files,
                                                    timeout=timeout or httpx.USE_CLIENT_DEFAULT)
        except httpx.TimeoutException as exc:
            raise self._failure(outage, method, path, f"timed out ({type(exc).__name__})") from None
        except httpx.LocalProtocolError:
            if probe:  # our own malformed request says nothing about the callee
                self.breaker.abandoned()
            raise
        except httpx.TransportError as exc:
            raise self._failure(outage, method, path, f"unreachable ({type(exc).__name__}: {exc})") from None
        except BaseException:
            if probe:  # cancelled: no verdict on the callee
                self.breaker.abandoned()
            raise

        status = response.status_code
        if answered and status >= 500 and _code_of(response) in answered:
            self.breaker.succeeded()  # the callee is up: it said why it would not
            return ServiceResponse(status, response.json(), response.headers)
        if not (200 <= status < 300 or 400 <= status < 500):
            raise self._failure(outage, method, path, f"answered {status}: {response.text[:200]!r}")
        body: Any = None
        if raw and status < 300:
            body = response.content
        elif response.content:
            try:
                body = response.json()
            except ValueError:
                if status < 300:
                    raise self._failure(outage, method, path, f"answered {status} with a body not JSON")
        self.breaker.succeeded()
        if status == 401 and as_service:
            log.error("configuration error: %s refused the service credential on %s %s (is SERVICE_TOKEN the "
                      "same for every system?)", self.system, method, path)
            raise errors.AuthorizationError("The request could not be authorized.")
        return ServiceResponse(status, body, response.headers)

    @contextlib.asynccontextmanager
    async def stream(self, method: str, path: str, *, headers: Mapping[str, str] | None = None,
                     user_token: str | None = None, params: Mapping[str, Any] | None = None,
                     read_timeout: float | None = None,
                     outage: Outage = errors.UpstreamError) -> AsyncIterator[httpx.Response]:
        """A response read as it arrives (Server-Sent Events relayed by the console): the httpx
        response, its body not read; the caller iterates ``aiter_raw()``. The same credential,
        breaker and failure rules as :meth:`request` for opening it (a 5xx, unreachable or timed out
        callee raises ``outage``; 2xx and 4xx are returned, a 4xx's body readable with ``aread()``).
        ``read_timeout``: the longest silence between two chunks (a stream's heartbeats). Leaving the
        block closes the connection, so the callee sees its reader gone (a relay's browser closed)."""
        sent = dict(headers or {})
        if user_token is not None:
            if not BEARER_TOKEN.fullmatch(user_token):
                raise errors.AuthorizationError("The credential is not valid.")
            sent["Authorization"] = f"Bearer {user_token}"
        if not self.breaker.admit():
            raise outage_error(outage, self.breaker.retry_after())
        probe = self.breaker.probing
        timeout = httpx.Timeout(self._timeout.write, connect=self._timeout.connect, read=read_timeout)
        request = self._streams().build_request(method, path, params=params, headers=sent, timeout=timeout)
        try:
            response = await self._streams().send(request, stream=True)
        except httpx.TimeoutException as exc:
            raise self._failure(outage, method, path, f"timed out ({type(exc).__name__})") from None
        except httpx.TransportError as exc:
            raise self._failure(outage, method, path, f"unreachable ({type(exc).__name__}: {exc})") from None
        except BaseException:
            if probe:
                self.breaker.abandoned()
            raise
        try:
            if not (200 <= response.status_code < 300 or 400 <= response.status_code < 500):
                raise self._failure(outage, method, path, f"answered {response.status_code}")
            self.breaker.succeeded()
            yield response
        finally:
            await response.aclose()

    def _failure(self, outage: Outage, method: str, path: str, reason: str) -> errors.HttpError:
        opened = self.breaker.failed()
        log.warning("call to %s failed: %s %s%s %s", self.system, method, self.base_url, path, reason)
        if opened:
            log.error("%s breaker open after %d consecutive failures: calls fail fast for %.0f s",
                      self.system, self.breaker.failures, self.breaker.cool_down)
        return outage_error(outage, self.breaker.retry_after())


def _code_of(response: httpx.Response) -> str | None:
    try:
        return ServiceResponse(response.status_code, response.json(), response.headers).error_code
    except ValueError:
        return None


class Services:
    """The clients of one process, one per callee system, made on first use."""

    def __init__(self, settings: Settings, *, timeout: httpx.Timeout | float = DEFAULT_TIMEOUT):
        self.settings = settings
        self._timeout = timeout
        self._clients: dict[str, ServiceClient] = {}

    def client(self, system: str) -> ServiceClient:
        if system not in self._clients:
            if system not in self.settings.public_urls:
                raise ValueError(f"unknown system {system!r}")
            self._clients[system] = ServiceClient(system, self.settings.internal_url_of(system),
                                                  self.settings.service_token, timeout=self._timeout)
        return self._clients[system]

    async def aclose(self) -> None:
        """Close every connection pool; a client used again opens a new one (a restarted server)."""
        for client in self._clients.values():
            await client.aclose()


def services(app: Sanic) -> Services:
    """The app's registry of service clients (made on first use)."""
    registry = getattr(app.ctx, "service_clients", None)
    if registry is None:
        registry = app.ctx.service_clients = Services(app.ctx.settings)
    return registry


def install(app: Sanic) -> Services:
    """Call while building a server (server.py): its service clients close when it stops."""
    registry = services(app)
    if not getattr(app.ctx, "service_clients_installed", False):
        app.ctx.service_clients_installed = True

        @app.after_server_stop
        async def close_service_clients(app: Sanic) -> None:
            await services(app).aclose()

    return registry


# -- the callee's side ---------------------------------------------------------------------------

def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    scheme, _, value = request.headers.get("authorization", "").strip().partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def require_service_credential(request: Request) -> None:
    """For an internal route (``/internal/v1/*``): the service credential, compared in constant
    time, or 401. With no SERVICE_TOKEN configured every call is refused (and said in the log)."""
    expected = request.app.ctx.settings.service_token or ""
    if not expected:
        log.error("SERVICE_TOKEN is not configured; internal routes refuse every call")
    token = bearer_token(request) or ""
    if not expected or not hmac.compare_digest(token.encode(), expected.encode()):
        raise errors.AuthorizationError("This route needs the service credential.")
