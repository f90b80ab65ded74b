"""The aiosmtpd handler of both listeners (its documented hooks: ``handle_RCPT``, ``handle_DATA``
and ``auth_<MECHANISM>``). A session that authenticated submits (app/smtp/submission.py); any other
receives (app/smtp/receiving.py). The submission listener requires AUTH before MAIL, so an
unauthenticated session there never reaches RCPT; the receiving listener offers no AUTH at all."""

from __future__ import annotations

import logging

from aiosmtpd.smtp import SMTP, AuthResult, Envelope, Session

from app.smtp import receiving, submission
from app.smtp.auth import Authenticator, login_password, plain_password
from app.smtp.limits import address_of
from app.smtp.upstream import Refusal, Upstream

log = logging.getLogger("herald.smtp")

MAX_RECIPIENTS = 500
MAX_MESSAGE_BYTES = 25 * 1024 * 1024


class Handler:
    def __init__(self, upstream: Upstream, authenticator: Authenticator) -> None:
        self.upstream = upstream
        self.authenticator = authenticator

    async def auth_PLAIN(self, server: SMTP, args: list[str]) -> AuthResult:
        password = await plain_password(server, args)
        if password is None:
            return AuthResult(success=False, handled=True)
        return await self.authenticator.check(server, password)

    async def auth_LOGIN(self, server: SMTP, args: list[str]) -> AuthResult:
        password = await login_password(server, args)
        if password is None:
            return AuthResult(success=False, handled=True)
        return await self.authenticator.check(server, password)

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return f"452 4.5.3 Too many recipients: at most {MAX_RECIPIENTS} a message"
        if len(address) > 254 or "@" not in address:
            return "553 5.1.3 Malformed address"
        if not session.authenticated:
            try:
                target = await receiving.target_of(self.upstream, address)
            except Refusal as refusal:
                return refusal.reply
            targets(envelope).append(target)
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        try:
            if session.authenticated:
                ids = await submission.submit(self.upstream, session.auth_data, list(envelope.rcpt_tos), raw)
                return f"250 2.0.0 Queued: {len(ids)} message(s), first {ids[0] if ids else '-'}"
            return await receiving.deliver(self.upstream, targets(envelope), envelope.mail_from or "", raw,
                                           address_of(session.peer), session.host_name or "")
        except Refusal as refusal:
            return refusal.reply
        except Exception:  # noqa: BLE001 - a bug of ours: the client keeps the message and retries
            log.exception("handling DATA failed")
            return "451 4.3.0 Internal error; nothing was lost, please try again later"


def targets(envelope: Envelope) -> list[receiving.Target]:
    """Where each accepted recipient's copy goes, kept on the envelope (reset with it by RSET/DATA)."""
    found = getattr(envelope, "herald_targets", None)
    if found is None:
        found = envelope.herald_targets = []  # type: ignore[attr-defined]
    return found
