"""E-mail over SMTP (aiosmtplib), DKIM-signed with the sender domain's key (dkimpy).

Configuration (``settings`` and ``secrets`` of the tenant's row, or EMAIL_PROVIDER_CONFIG)::

    host            required
    port            default 587 (465 with security "tls", 25 with "none")
    security        "starttls" (default: refuse a server that does not offer it), "tls" (implicit), "none"
    username, password   log in when given
    ca_file         CA bundle to verify the server with (default: the system's)
    pool_size       connections kept per worker process (default 4)
    max_idle        seconds an idle connection is kept for reuse (default 30; then it is closed)
    timeout         seconds (default 30)

A tenant's configuration reaches only what kit.egress allows: ``host`` resolved when
connecting and refused unless every address is public, the vetted address connected (the TLS
certificate still checked against ``host``), ``port`` one of 25, 465, 587, 2525; no ``ca_file``
(a path on the worker's disk is the operator's to choose).

The MIME message is built with the standard library: multipart/alternative when there are text
and HTML parts, Message-ID (``<msg_...@sender-domain>``: the message's public id, the same on every
attempt, so a receiver can drop a repeat after a worker crash), Date, Reply-To, the
request's custom headers (``List-Unsubscribe`` and ``List-Unsubscribe-Post`` among them, both
then covered by the signature, RFC 8058); attachments make it multipart/mixed, each file base64.
Addresses (From, To, Cc, Reply-To) are parsed and written again from their parts, display names
quoted or encoded as needed; a header name or value that could end the line (CR, LF, NUL) or an
address that is not exactly one valid address fails the message (PermanentProviderError), whatever
was checked before: nothing of it reaches the wire. Without a DKIM key the message is refused:
Herald sends only signed mail from verified domains. SMTP 4xx answers are transient, 5xx permanent
(a 5xx at RCPT is a hard bounce, ``RecipientBounced``), a refused login is a configuration error.
The envelope sender is the message's VERP return path when delivery gives one
(``Outgoing.return_path``, docs/bounces.md).
The signature is computed off the event loop, the RSA step in OpenSSL (providers/dkim_signing.py).
"""

from __future__ import annotations

import asyncio
import codecs
import functools
import logging
import re
import ssl
import time
from dataclasses import replace
from email.headerregistry import Address, HeaderRegistry
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate

import aiosmtplib
import dkim

from kit import egress
# The headers Herald writes itself: refused at accept (app/platform/message/schemas.py) and here again.
from kit.email_headers import reserved_email_header
from providers.base import EmailProvider, Outgoing, Receipt
from providers.dkim_signing import sign_off_loop
from providers.errors import (PermanentProviderError, ProviderConfigError, ProviderError, RecipientBounced,
                              TransientProviderError)

log = logging.getLogger("herald.providers")

SIGNED_HEADERS = [b"from", b"sender", b"reply-to", b"subject", b"date", b"message-id", b"to", b"cc",
                  b"mime-version", b"content-type", b"content-transfer-encoding", b"list-unsubscribe",
                  b"list-unsubscribe-post", b"x-herald-message-id"]


class _HeaderClasses(HeaderRegistry):
    """The standard header registry, with each header's class made once: the stock one builds a
    new class (``type(...)``) for every header it parses, a sizeable share of a message's build."""

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        found = self._classes.get(name.lower())
        if found is None:
            found = self._classes[name.lower()] = super().__getitem__(name)
        return found


# The SMTP policy (CRLF, RFC 5322 folding), its headers parsed by the registry above.
SMTP_POLICY = SMTP.clone(header_factory=_HeaderClasses())


# A header field name: printable US-ASCII but the colon (RFC 5322 section 2.2).
HEADER_NAME = re.compile(r"^[!-9;-~]{1,76}$")
_LINE_ENDERS = ("\r", "\n", "\0")


def _one_line(what: str, value: str) -> str:
    if not isinstance(value, str) or any(character in value for character in _LINE_ENDERS):
        raise PermanentProviderError(f"{what} contains a line break or NUL")
    return value


def address(what: str, text: str) -> Address:
    """``text`` as exactly one valid address, ready to be written again from its parts (the
    display name quoted or encoded by the email package, never copied as given); ``what`` names it
    in the refusal. Cached per text whatever ``what`` is (an Address is immutable; the refusal is
    raised on every call): a sender's address, or a recipient's for the envelope after
    the To header, is parsed once."""
    found = _parsed_address(_one_line(what, text))
    if found is None:
        raise PermanentProviderError(f"{what} is not a single valid address")
    return found


@functools.lru_cache(maxsize=4096)
def _parsed_address(text: str) -> Address | None:
    header = SMTP_POLICY.header_factory("to", text)
    found = header.addresses
    if header.defects or len(found) != 1 or not found[0].username or not found[0].domain:
        return None
    return Address(display_name=found[0].display_name, username=found[0].username, domain=found[0].domain)


@functools.lru_cache(maxsize=1024)
def _address_header(name: str, what: str, texts: tuple[str, ...]):
    """The header object of ``name`` for these addresses (each checked by :func:`address` and
    written again from its parts), kept for the next message with the same ones (a sender's From,
    Reply-To). Header objects are immutable."""
    return SMTP_POLICY.header_factory(name, [address(what, text) for text in texts])


@functools.lru_cache(maxsize=4)
def _date_header(second: int):
    return SMTP_POLICY.header_factory("Date", formatdate(second, usegmt=True))


def message_id_header(message_id: str, domain: str) -> str:
    """The Message-ID of an e-mail: derived from its public id alone, never minted per attempt."""
    return f"<{message_id}@{domain}>"


def build_message(message: Outgoing) -> EmailMessage:
    content = message.content or {}
    sender = address("the From address", message.sender or "")
    mime = EmailMessage(policy=SMTP_POLICY)
    mime["From"] = _address_header("From", "the From address", (message.sender or "",))
    mime["To"] = [address("a To address", text) for text in content.get("To") or [message.recipient]]
    if content.get("Cc"):
        mime["Cc"] = [address("a Cc address", text) for text in content["Cc"]]
    mime["Subject"] = _one_line("the subject", message.subject or "")
    mime["Date"] = _date_header(int(time.time()))
    mime["Message-ID"] = message_id_header(message.message_id, sender.domain)
    if content.get("ReplyTo"):
        mime["Reply-To"] = _address_header("Reply-To", "a Reply-To address", tuple(content["ReplyTo"]))
    mime["X-Herald-Message-Id"] = message.message_id
    for name, value in (content.get("Headers") or {}).items():
        if not isinstance(name, str) or not HEADER_NAME.match(name):
            raise PermanentProviderError(f"header name {name!r} is not a valid header field name")
        if reserved_email_header(name):
            raise PermanentProviderError(f"header {name!r} cannot be set by a request")
        mime[name] = _one_line(f"header {name!r}", value)
    text, html = content.get("Text"), content.get("Html")
    charset = _one_line("the charset", content.get("Charset") or "utf-8")
    try:
        codecs.lookup(charset)
    except LookupError:
        raise PermanentProviderError(f"unknown charset {charset!r}") from None
    if text is not None:
        mime.set_content(text, charset=charset)
        if html is not None:
            mime.add_alternative(html, subtype="html", charset=charset)
    else:
        mime.set_content(html or "", subtype="html", charset=charset)
    add_attachments(mime, message)
    return mime


def add_attachments(mime: EmailMessage, message: Outgoing) -> None:
    """The message's files as attachment parts (multipart/mixed around the body), base64 encoded:
    the signature covers the body as sent, so DKIM stays correct."""
    for item in message.attachments:
        maintype, _, subtype = item.content_type.partition("/")
        if not maintype or not subtype:
            maintype, subtype = "application", "octet-stream"
        mime.add_attachment(item.data, maintype=maintype, subtype=subtype,
                            filename=_one_line("an attachment's file name", item.filename))


def sign(raw: bytes, message: Outgoing) -> bytes:
    key = message.dkim
    present = {line.split(b":", 1)[0].strip().lower() for line in raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
               if b":" in line and not line[:1].isspace()}
    headers = [name for name in SIGNED_HEADERS if name in present]
    try:
        signature = dkim.sign(raw, key.selector.encode(), key.domain.encode(), key.private_key_pem,
                              canonicalize=(b"relaxed", b"relaxed"), include_headers=headers)
    except dkim.DKIMException as error:
        raise ProviderConfigError(f"DKIM signing failed for {key.domain}: {error}") from error
    return signature + raw


_LOCAL_HOSTNAME = re.compile(r"^(?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}$|^\[[0-9A-Fa-f:.]{2,45}\]$")
_ENHANCED_STATUS = re.compile(r"^\s*([245]\.\d{1,3}\.\d{1,3})\b")


def _answer(code: int, text: str) -> str:
    """An SMTP answer for a failure reason: the code and the enhanced status code (RFC 3463);
    the server's own words go to the operator's log only."""
    found = _ENHANCED_STATUS.match(text or "")
    if text:
        log.info("SMTP answer %s %s", code, text.replace("\n", " ")[:300])
    return f"{code} {found.group(1)}" if found else str(code)


def refusal_error(code: int) -> type[ProviderError]:
    """How a refusal at RCPT is classified, as a DSN's status would be (docs/bounces.md): 4xx a soft
    bounce (retried), 5xx a hard one (the message bounced, the address suppressed)."""
    return TransientProviderError if 400 <= code < 500 else RecipientBounced


class _Pool:
    """SMTP connections of one configuration, kept open and reused by this worker process: each
    message is a new transaction (MAIL, RCPT, DATA; aiosmtplib sends RSET after a refusal) on a
    connection already past its TCP, EHLO, STARTTLS and login. A connection idle longer than
    ``max_idle`` is closed rather than reused (servers drop idle sessions); one the server
    dropped anyway is replaced once, at once."""

    def __init__(self, provider: SmtpProvider, size: int):
        self.provider = provider
        self.config = provider.config
        # (connection, when it went idle), the most recent last
        self.idle: list[tuple[aiosmtplib.SMTP, float]] = []
        self.slots = asyncio.Semaphore(size)
        self.max_idle = float(self.config.get("max_idle", 30))

    def _take(self) -> aiosmtplib.SMTP | None:
        """The most recently used idle connection still within ``max_idle``; older ones are closed."""
        now = time.monotonic()
        stale = [client for client, since in self.idle if now - since > self.max_idle]
        if stale:  # closed without a QUIT: a silently dropped session would only make it wait
            self.idle = [(client, since) for client, since in self.idle if now - since <= self.max_idle]
            for client in stale:
                client.close()
        return self.idle.pop()[0] if self.idle else None

    async def _client(self) -> aiosmtplib.SMTP:
        config = self.config
        security = config.get("security", "starttls")
        if security not in ("starttls", "tls", "none"):
            raise ProviderConfigError(f"smtp security must be starttls, tls or none, not {security!r}")
        local_hostname = config.get("local_hostname")
        if local_hostname is not None and not (isinstance(local_hostname, str)
                                               and _LOCAL_HOSTNAME.match(local_hostname)):
            raise ProviderConfigError("smtp local_hostname must be a host name or an address literal")
        port = int(config.get("port") or {"starttls": 587, "tls": 465, "none": 25}[security])
        timeout = float(config.get("timeout", 30))
        where: dict = {"hostname": config["host"], "port": port}
        if self.provider.tenant_configured:
            if config.get("ca_file"):
                raise ProviderConfigError("ca_file can only be set in the platform's provider configuration")
            policy = replace(self.provider.egress, ports=egress.SMTP_PORTS)
            try:
                sock = await egress.connect(config["host"], port, policy, timeout=timeout)
            except egress.UnsafeTarget as error:
                raise ProviderConfigError(f"smtp host refused: {error}") from error
            # Connected to the vetted address; ``hostname`` stays for the TLS certificate check.
            where = {"hostname": config["host"], "sock": sock}
        tls_context = ssl.create_default_context(cafile=config["ca_file"]) if config.get("ca_file") else None
        return aiosmtplib.SMTP(
            **where, username=config.get("username"), password=config.get("password"),
            use_tls=security == "tls", start_tls=security == "starttls",
            tls_context=tls_context, timeout=timeout, local_hostname=local_hostname)

    async def send(self, sender: str, recipient: str, raw: bytes) -> None:
        async with self.slots:
            for reused in (True, False):
                client = self._take() if reused else None
                fresh = client is None
                if fresh:
                    client = await self._client()
                    await client.connect()
                try:
                    await client.sendmail(sender, [recipient], raw)
                except aiosmtplib.SMTPServerDisconnected:
                    client.close()
                    if fresh:
                        raise
                    continue  # the server dropped an idle connection: once more on a new one
                except BaseException:
                    await _quit(client)
                    raise
                self.idle.append((client, time.monotonic()))
                return

    async def close(self) -> None:
        while self.idle:
            await _quit(self.idle.pop()[0])


async def _quit(client: aiosmtplib.SMTP) -> None:
    try:
        if client.is_connected:
            await asyncio.wait_for(client.quit(), 5)
    except (aiosmtplib.SMTPException, OSError, asyncio.TimeoutError):
        client.close()


class SmtpProvider(EmailProvider):
    key = "smtp"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        if not self.config.get("host"):
            raise ProviderConfigError("smtp provider needs a host")
        self.pool = _Pool(self, int(self.config.get("pool_size", 4)))

    async def send(self, message: Outgoing) -> Receipt:
        if message.dkim is None:
            raise ProviderConfigError(f"no DKIM key for the sender domain of {message.sender!r}; "
                                      "add the domain with `herald domain add`")
        mime = build_message(message)
        raw = await sign_off_loop(sign, mime.as_bytes(), message)
        # The envelope: the checked addresses, never the texts as given.
        envelope_from = message.return_path or mime["From"].addresses[0].addr_spec
        recipient = address("the recipient", message.recipient).addr_spec
        try:
            await self.pool.send(envelope_from, recipient, raw)
        except aiosmtplib.SMTPAuthenticationError as error:
            raise ProviderConfigError(f"SMTP login refused: {_answer(error.code, error.message)}") from error
        except aiosmtplib.SMTPRecipientsRefused as error:
            refusal = error.recipients[0] if error.recipients else None
            code = refusal.code if refusal else 550
            answer = _answer(code, refusal.message if refusal else "")
            raise refusal_error(code)(f"SMTP refused the recipient: {answer}") from error
        except aiosmtplib.SMTPResponseException as error:
            if 400 <= error.code < 500:
                raise TransientProviderError(f"SMTP {_answer(error.code, error.message)}") from error
            raise PermanentProviderError(f"SMTP {_answer(error.code, error.message)}") from error
        except (aiosmtplib.SMTPException, OSError, asyncio.TimeoutError) as error:
            raise TransientProviderError(f"SMTP server unreachable: {error!r}") from error
        return Receipt(mime["Message-ID"].strip("<>"), {"MessageIdHeader": mime["Message-ID"]})

    async def close(self) -> None:
        await self.pool.close()
