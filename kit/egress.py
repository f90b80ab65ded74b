"""The one way out to an address a tenant chose: webhook endpoints, Web Push subscription
endpoints, the hosts and URLs of a tenant's own provider configuration (later: media imported by
URL). Whoever writes the URL, Herald decides what it may reach (SSRF):

- :meth:`Policy.url_problem` judges a URL without DNS: allowed schemes and ports, no
  credentials, no literal address that is not public, no local-only names, IPv4 only as four
  decimal numbers;
- :func:`resolve` resolves a host at connection time and refuses it when **any** address is not
  public (:func:`address_problem`); the connection then goes to a vetted address (pinned), never
  to a second resolution, so a DNS answer that changes in between cannot redirect it;
- :func:`client` is an httpx client doing both for every request and connection (TLS SNI and the
  certificate check stay on the original name, the ``Host`` header too), with no redirects
  followed, no proxy taken from the environment, and a cap on the answer (:class:`RefusedReply`);
- :func:`connect` opens a vetted TCP socket for other protocols (SMTP).

One development switch, ``WEBHOOKS_ALLOW_LOOPBACK`` (``settings.webhooks_allow_loopback``, on by
default with ``HERALD_ENV=test``), which callers put in their policy (:meth:`Policy.with_loopback`),
lets every one of these reach loopback (``127.0.0.0/8``, ``::1``, ``localhost``) over http or https
on any port, so tests talk to local servers; nothing else that is refused becomes allowed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import ssl
from dataclasses import dataclass, replace
from typing import AsyncIterator, Iterable
from urllib.parse import urlsplit

import httpcore
import httpx

__all__ = ["Policy", "WEBHOOKS", "PROVIDERS", "SMTP_PORTS", "EgressError", "UnsafeTarget", "RefusedReply",
           "EgressClient", "EgressTransport", "client", "connect", "resolve", "check_url", "url_problem",
           "address_problem", "literal_address"]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

DEFAULT_MAX_REPLY_BYTES = 1024 * 1024


class EgressError(Exception):
    """A request refused by the egress policy:

    EgressError
    ├── UnsafeTarget    the URL, or an address its host resolves to, may not be reached
    └── RefusedReply    the answer is larger than the cap, or compressed though Herald asked it not to be
    """


class UnsafeTarget(EgressError):
    pass


class RefusedReply(EgressError):
    pass


@dataclass(frozen=True)
class Policy:
    """What an outbound request may reach. ``ports`` None: any port but 0."""

    schemes: frozenset[str] = frozenset({"https"})
    ports: frozenset[int] | None = frozenset({443})
    allow_loopback: bool = False
    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES

    def with_loopback(self, allowed: bool) -> Policy:
        return replace(self, allow_loopback=allowed)

    def url_problem(self, url: str) -> str | None:
        """Why ``url`` may not be requested, judged without DNS (None when it may be)."""
        if len(url) > 2048:
            return "must be at most 2048 characters"
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as exc:
            return f"is not a valid URL ({exc})"
        host = (parts.hostname or "").rstrip(".")
        local = self.allow_loopback and _is_loopback_host(host)
        schemes = self.schemes | {"http", "https"} if local else self.schemes
        if parts.scheme not in schemes:
            return "must be an " + " or ".join(f"{scheme}://" for scheme in sorted(schemes)) + " URL"
        if parts.username is not None or parts.password is not None:
            return "must not carry credentials"
        if not host:
            return "must name a host"
        if port == 0:
            return "must not use port 0"
        if self.ports is not None and not local:
            effective = port or _DEFAULT_PORTS.get(parts.scheme)
            if effective not in self.ports:
                return "must use port " + " or ".join(str(allowed) for allowed in sorted(self.ports))
        return self.host_problem(host)

    def host_problem(self, host: str) -> str | None:
        """Why ``host`` (a name or a literal address) may not be reached, judged without DNS."""
        host = host.rstrip(".").lower()
        address = literal_address(host)
        if address is not None:
            if isinstance(address, ipaddress.IPv4Address) and host != str(address):
                return "must write an IPv4 address as four decimal numbers"
            problem = address_problem(address, allow_loopback=self.allow_loopback)
            return f"points at a forbidden address: {problem}" if problem else None
        if host in _BLOCKED_NAMES or host.endswith(_BLOCKED_SUFFIXES):
            if self.allow_loopback and _is_loopback_host(host):
                return None
            return "points at a local-only host name"
        labels = host.split(".")
        if any(not _LABEL.match(label) for label in labels) or labels[-1].isdigit():
            return "has an invalid host name"
        return None

    def port_problem(self, host: str, port: int) -> str | None:
        if port <= 0 or port > 65535:
            return f"port {port} is not a port"
        if self.ports is not None and port not in self.ports and not (
                self.allow_loopback and _is_loopback_host(host.rstrip(".").lower())):
            return "must use port " + " or ".join(str(allowed) for allowed in sorted(self.ports))
        return None


# Webhook endpoints: http or https on any port (what the registration has always accepted).
WEBHOOKS = Policy(schemes=frozenset({"http", "https"}), ports=None)
# Provider URLs a tenant gives (its configuration's base URLs, Web Push subscriptions): https on 443.
PROVIDERS = Policy()
# A tenant's SMTP server: the submission and relay ports.
SMTP_PORTS = frozenset({25, 465, 587, 2525})


def url_problem(url: str, *, allow_loopback: bool = False) -> str | None:
    """Why ``url`` cannot be a webhook endpoint (the registration's check), or None."""
    return WEBHOOKS.with_loopback(allow_loopback).url_problem(url)


def check_url(url: str, policy: Policy) -> None:
    problem = policy.url_problem(url)
    if problem:
        raise UnsafeTarget(f"the URL {problem}")


# --- addresses ------------------------------------------------------------------------------------

_DEFAULT_PORTS = {"http": 80, "https": 443}
_BLOCKED_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")
_BLOCKED_SUFFIXES = (".localhost", ".local", ".internal", ".localdomain", ".home.arpa")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def _is_loopback_host(host: str) -> bool:
    address = literal_address(host)
    if address is not None:
        return address.is_loopback and not (isinstance(address, ipaddress.IPv4Address) and host != str(address))
    return host == "localhost" or host.endswith(".localhost")


def address_problem(address: Address, *, allow_loopback: bool = False) -> str | None:
    """Why Herald must not connect to ``address`` (None when it is a public unicast address).

    Loopback is allowed only with the development switch; private, link-local (cloud metadata
    169.254.169.254 included), shared, reserved, multicast, IPv6 unique-local, and IPv4 embedded
    in IPv6 (mapped, 6to4, Teredo, NAT64) never are."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return "IPv4-mapped IPv6 addresses are not allowed"
        if address.sixtofour is not None or address.teredo is not None or address in _NAT64 \
                or address in _NAT64_LOCAL:
            return "IPv6 addresses embedding an IPv4 address are not allowed"
        if address.scope_id:
            return "scoped IPv6 addresses are not allowed"
    if address.is_loopback:
        return None if allow_loopback else "loopback addresses are not allowed"
    if address.is_unspecified:
        return "the unspecified address is not allowed"
    if address.is_link_local:
        return "link-local addresses (cloud metadata included) are not allowed"
    if address.is_multicast:
        return "multicast addresses are not allowed"
    if isinstance(address, ipaddress.IPv6Address) and address in _UNIQUE_LOCAL:
        return "IPv6 unique-local addresses are not allowed"
    if address.is_private or address.is_reserved or not address.is_global:
        return "private or reserved addresses are not allowed"
    return None


def literal_address(host: str) -> Address | None:
    """The address a host names literally, in any spelling a resolver accepts (``127.1``,
    ``2130706433``, ``0177.0.0.1``, ``0x7f.0.0.1``, ``[::1]``), or None for a DNS name."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except (OSError, ValueError):
        return None


async def resolve(host: str, port: int, policy: Policy) -> list[Address]:
    """The addresses to connect to for ``host`` now, every one vetted.

    Raises UnsafeTarget when the host or **any** address it resolves to is refused (a resolver
    answering several must not pick for us), ConnectionError when the name does not resolve."""
    host = host.strip("[]").rstrip(".").lower()
    problem = policy.host_problem(host) or policy.port_problem(host, port)
    if problem:
        raise UnsafeTarget(f"{host}: {problem}")
    literal = literal_address(host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise ConnectionError(f"cannot resolve {host}: {exc.strerror}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(info[4][0]) for info in infos))
    for address in addresses:
        problem = address_problem(address, allow_loopback=policy.allow_loopback)
        if problem:
            raise UnsafeTarget(f"{host} resolves to {address}: {problem}")
    if not addresses:
        raise ConnectionError(f"{host} has no address")
    return addresses


async def connect(host: str, port: int, policy: Policy, *, timeout: float) -> socket.socket:
    """A TCP socket connected to a vetted address of ``host`` (for protocols other than HTTP)."""
    async with asyncio.timeout(timeout):
        addresses = await resolve(host, port, policy)
        loop = asyncio.get_running_loop()
        failure: OSError | None = None
        for address in addresses:
            family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.setblocking(False)
            try:
                await loop.sock_connect(sock, (str(address), port))
                return sock
            except OSError as exc:
                sock.close()
                failure = exc
            except BaseException:
                sock.close()
                raise
        raise ConnectionError(f"cannot connect to {host} port {port}: {failure}")


# --- HTTP -----------------------------------------------------------------------------------------

class _VettedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to vetted addresses of the requested host."""

    def __init__(self, policy: Policy):
        self.policy = policy
        self.inner = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                          socket_options: Iterable | None = None) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                addresses = await resolve(host, port, self.policy)
        except TimeoutError:
            raise httpcore.ConnectTimeout(f"resolving {host} took longer than {timeout}s") from None
        except ConnectionError as exc:
            raise httpcore.ConnectError(str(exc)) from None
        failure: Exception | None = None
        for address in addresses:
            try:
                return await self.inner.connect_tcp(str(address), port, timeout=timeout, local_address=local_address,
                                                    socket_options=socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        raise failure  # type: ignore[misc]  # addresses is never empty

    async def connect_unix_socket(self, *args, **kwargs):  # never: only TCP to vetted addresses
        raise UnsafeTarget("unix sockets are not reachable through the egress")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


class _CappedStream(httpx.AsyncByteStream):
    def __init__(self, stream: httpx.AsyncByteStream, cap: int):
        self.stream, self.cap = stream, cap

    async def __aiter__(self) -> AsyncIterator[bytes]:
        received = 0
        async for chunk in self.stream:
            received += len(chunk)
            if received > self.cap:
                raise RefusedReply(f"the answer is larger than {self.cap} bytes")
            yield chunk

    async def aclose(self) -> None:
        await self.stream.aclose()


class EgressTransport(httpx.AsyncHTTPTransport):
    """Every request checked against the policy; every new connection to a vetted address; the
    answer capped. No proxy: the pool connects directly."""

    def __init__(self, policy: Policy, *, verify: ssl.SSLContext | bool = True, http1: bool = True,
                 http2: bool = False, limits: httpx.Limits = httpx.Limits(), raw: bool = False):
        self.policy = policy
        self.raw = raw
        # The pool is built here rather than by httpx, which has no option for the network backend.
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(verify=verify, trust_env=False),
            max_connections=limits.max_connections, max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry, http1=http1, http2=http2,
            network_backend=_VettedBackend(policy))

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        check_url(str(request.url), self.policy)
        response = await super().handle_async_request(request)
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if not self.raw and encoding not in ("", "identity"):
            # Decoding would defeat the cap (a small compressed answer can expand without limit).
            await response.aclose()
            raise RefusedReply(f"the answer is compressed ({encoding}) though Herald asked for identity")
        response.stream = _CappedStream(response.stream, self.policy.max_reply_bytes)
        return response


class EgressClient(httpx.AsyncClient):
    """httpx's client with redirects never followed, whatever a caller passes: a 3xx is an
    answer like any other (a caller that wants to follow one makes a new request, checked again)."""

    async def send(self, request: httpx.Request, *, stream: bool = False, auth=httpx.USE_CLIENT_DEFAULT,
                   follow_redirects=httpx.USE_CLIENT_DEFAULT) -> httpx.Response:
        return await super().send(request, stream=stream, auth=auth, follow_redirects=False)


def client(policy: Policy, *, timeout: httpx.Timeout | float = 15.0, verify: ssl.SSLContext | bool = True,
           http1: bool = True, http2: bool = False, keepalive: bool = True, raw: bool = False) -> EgressClient:
    """An httpx client that reaches only what ``policy`` allows: the policy checked on every
    request, every new connection to a vetted address, no redirects, no proxy from the
    environment, at most ``policy.max_reply_bytes`` of answer, ``Accept-Encoding: identity``.

    ``raw``: the caller reads only raw bytes (``aiter_raw``), so a compressed answer is not refused."""
    limits = httpx.Limits() if keepalive else httpx.Limits(max_keepalive_connections=0)
    transport = EgressTransport(policy, verify=verify, http1=http1, http2=http2, limits=limits, raw=raw)
    return EgressClient(transport=transport, trust_env=False, follow_redirects=False, timeout=timeout,
                        headers={"Accept-Encoding": "identity"})
