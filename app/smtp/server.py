"""``herald smtpd``: Herald's SMTP server, one asyncio process with up to three listeners.

    receiving   SMTP_RECEIVE_PORT (2525; 25 in production)      mail for mailboxes and returns; no AUTH,
                                                                STARTTLS offered when a certificate is set
    submission  SMTP_SUBMISSION_PORT (2587; 587 in production)  AUTH (an API key) before MAIL; STARTTLS
    implicit    SMTP_TLS_PORT (2465; 465 in production)         submission inside TLS from the first byte,
                                                                only with SMTP_TLS_CERT and SMTP_TLS_KEY

Hardened for the open internet: per-address limits on open connections and failed AUTH
(app/smtp/limits.py), 25 MB messages, 500 recipients, an idle timeout per command
(:data:`IDLE_SECONDS`) and a lifetime per connection (:data:`SESSION_SECONDS`), a cap on commands
per session, and outside development (HERALD_ENV=production) AUTH only inside TLS.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import ssl
from functools import partial
from typing import Any

from aiosmtpd.smtp import SMTP

from app.smtp.auth import Authenticator
from app.smtp.handler import MAX_MESSAGE_BYTES, Handler
from app.smtp.limits import Limits, SharedFailures, address_of
from app.smtp.upstream import Upstream
from kit.settings import Settings

log = logging.getLogger("herald.smtp")

IDLE_SECONDS = 60
SESSION_SECONDS = 10 * 60
# How many times a connection may send each command (aiosmtpd's command_call_limit): RCPT enough
# for ten messages of 500 recipients, every other command 200 times.
COMMANDS_PER_SESSION = {"RCPT": 5000, "*": 200}
TOO_MANY = b"421 4.7.0 Too many connections from your address; try again later\r\n"


class GuardedSMTP(SMTP):
    """aiosmtpd's protocol with the per-address connection limit and a lifetime per connection."""

    def __init__(self, handler: Handler, limits: Limits, **options: Any) -> None:
        super().__init__(handler, **options)
        self.limits = limits
        self.client_address: str | None = None
        self.refused = False
        self.lifetime: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self.client_address is not None:  # STARTTLS: the same connection, wrapped
            super().connection_made(transport)
            return
        address = address_of(transport.get_extra_info("peername"))
        if not self.limits.open(address):
            self.refused = True
            transport.write(TOO_MANY)  # type: ignore[attr-defined]
            transport.close()
            return
        self.client_address = address
        self.lifetime = self.loop.call_later(SESSION_SECONDS, transport.close)
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        if self.refused:
            return
        if self.client_address is not None:
            self.limits.close(self.client_address)
            self.client_address = ""  # counted off once
        if self.lifetime is not None:
            self.lifetime.cancel()
        super().connection_lost(error)

    def eof_received(self) -> bool | None:
        return False if self.refused else super().eof_received()


def tls_context(settings: Settings) -> ssl.SSLContext | None:
    if not (settings.smtp_tls_cert and settings.smtp_tls_key):
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(settings.smtp_tls_cert, settings.smtp_tls_key)
    return context


def listeners(settings: Settings, handler: Handler, limits: Limits) -> list[tuple[str, int, Any, ssl.SSLContext | None]]:
    """(name, port, protocol factory, ssl context of the socket) for each listener to open."""
    context = tls_context(settings)
    production = settings.env == "production"
    common = dict(data_size_limit=MAX_MESSAGE_BYTES, hostname=settings.smtp_hostname, ident="Herald",
                  timeout=IDLE_SECONDS, command_call_limit=COMMANDS_PER_SESSION)
    receive = partial(GuardedSMTP, handler, limits, tls_context=context, auth_require_tls=True,
                      auth_exclude_mechanism=["PLAIN", "LOGIN"], **common)
    submit = partial(GuardedSMTP, handler, limits, tls_context=context, require_starttls=production and bool(context),
                     auth_required=True, auth_require_tls=production, **common)
    found = [("receiving", settings.smtp_receive_port, receive, None),
             ("submission", settings.smtp_submission_port, submit, None)]
    if context is not None and settings.smtp_tls_port:
        implicit = partial(GuardedSMTP, handler, limits, auth_required=True, auth_require_tls=False, **common)
        found.append(("implicit TLS", settings.smtp_tls_port, implicit, context))
    return found


async def serve(settings: Settings) -> None:
    upstream = Upstream(settings)
    limits = Limits(settings.smtp_connections_per_address, settings.smtp_auth_failures_per_address)
    shared = SharedFailures(upstream.redis, settings.smtp_auth_failures_per_address)
    handler = Handler(upstream, Authenticator(upstream, limits, shared))
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    if settings.env == "production" and tls_context(settings) is None:
        log.warning("no SMTP_TLS_CERT/SMTP_TLS_KEY: submission cannot offer TLS, so AUTH is refused (production)")
    servers = []
    try:
        opened = []
        for name, port, factory, context in listeners(settings, handler, limits):
            try:
                servers.append(await loop.create_server(factory, settings.host, port, ssl=context))
            except OSError as error:
                if settings.env == "production":
                    raise
                # Development: another stack on this machine holds the port; the rest of Herald runs on.
                log.error("SMTP %s cannot listen on %s:%d (%s); set SMTP_*_PORT", name, settings.host, port, error)
                continue
            opened.append(f"{name} {port}")
        log.info("listening on %s: %s", settings.host, ", ".join(opened))
        await stop.wait()
    finally:
        for server in servers:
            server.close()
        for server in servers:
            await server.wait_closed()
        await upstream.aclose()
