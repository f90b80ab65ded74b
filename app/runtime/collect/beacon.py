"""``POST /collect`` on the fast path (app/http/fastpath.py): the plain, valid beacon taken from its
raw bytes, with the route's own rules (app/runtime/collect/service.py) and the same answer.

Taken: a whole ``POST /collect?k=<credential> HTTP/1.1`` with a ``Content-Length`` body and plain
headers, whose credential opens for its Origin and whose body is a valid batch. It is normalized and
published exactly as the route does, and answered 204 with the route's headers (X-Request-Id, the
echoed origin, Vary) and counted in the route's metrics. Everything else is declined and reaches the
route through Sanic: another query parameter, an escaped or odd credential, chunked or oversized
bodies, ``Connection: close``, ``Expect``, folded or control-character headers, a credential that
does not open, an invalid body, and a publish refused (rotated credential) or over the address's
ceiling, whose 403 and 429 the route renders. A declined publish is tried once more by the route:
a refused one adds nothing, a throttled one counts once more against an address already over.
"""

from __future__ import annotations

import asyncio
import re
import time

from sanic import Sanic
from sanic.compat import Header
from sanic.models.server_types import ConnInfo

from app.http import fastpath, metrics
from app.http.request_id import new_request_id
from app.runtime.collect import service
from app.runtime.collect.schemas import read_collect
from app.runtime.errors import CredentialRefused
from models.runtime.stream import EVENTS_STREAM

PREFIX = b"POST /collect?k="
ROUTE = "/collect"
TOKEN = re.compile(r"[A-Za-z0-9._-]{1,1024}")  # a credential as the pixel sends it: nothing to unescape
PUBLISHED = (service.ACCEPTED, service.FULL, service.UNAVAILABLE)  # what the route answers 204


def install(app: Sanic) -> None:
    fastpath.register(app, PREFIX, take)


def take(app: Sanic, data: bytes, connection: ConnInfo | None) -> fastpath.Answer:
    started = time.perf_counter()
    request = _read(app, data)
    if request is None:
        return None
    token, headers, body = request
    origin = headers.get("origin")
    try:
        credential = service.open_for(token, origin)
    except CredentialRefused:
        return None
    batch = read_collect(body)
    if batch is None:
        return None
    entry = service.collect_entry(batch, credential, headers.get("user-agent", ""),
                                  service.country_of(headers), service.asn_of(headers))
    cors = service.echoed_origin(origin)
    system = app.config.HERALD_SYSTEM
    if entry is None:
        return _no_content(system, cors, started)
    per_address = app.ctx.settings.runtime_collect_per_address
    address = _address(app, headers, connection) if per_address else ""
    published = app.ctx.collect.submit(EVENTS_STREAM, credential, entry, address=address,
                                       per_address=per_address)
    answer = asyncio.get_running_loop().create_future()

    def answered(future: asyncio.Future) -> None:
        if answer.cancelled():
            return
        if future.cancelled() or future.exception() is not None or future.result() not in PUBLISHED:
            answer.set_result(None)  # the route answers it (403, 429) or meets the same failure
        else:
            answer.set_result(_no_content(system, cors, started))

    published.add_done_callback(answered)
    return answer


def _read(app: Sanic, data: bytes) -> tuple[str, Header, bytes] | None:
    """(credential, headers, body) of a beacon the fast path may take, or None: the house's reading
    (fastpath.read_head, a body of its Content-Length included) and a credential with nothing to
    unescape."""
    request = fastpath.read_head(app, data, b"POST")
    if request is None:
        return None
    target, headers, body = request
    token = target.removeprefix("/collect?k=")
    if not TOKEN.fullmatch(token):
        return None
    return token, headers, body


def _address(app: Sanic, headers: Header, connection: ConnInfo | None) -> str:
    """The client's address as the route's ``request.remote_addr or request.ip`` gives it: the proxy
    headers Sanic's configuration trusts, else the peer."""
    return str(fastpath.forwarded(app, headers).get("for", "")) or (connection.client_ip if connection else "")


def _no_content(system: str, cors: str | None, started: float) -> bytes:
    metrics.observe_route(system, "POST", ROUTE, 204, started)
    answer = b"HTTP/1.1 204 No Content\r\n"
    if cors:
        answer += b"access-control-allow-origin: %s\r\nvary: Origin\r\n" % cors.encode("latin-1")
    return answer + b"x-request-id: %s\r\nconnection: keep-alive\r\n\r\n" % new_request_id().encode()
