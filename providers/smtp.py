"""E-mail over SMTP (aiosmtplib), DKIM-signed with the sender domain's key (dkimpy).

Configuration (``settings`` and ``secrets`` of the tenant's row, or EMAIL_PROVIDER_CONFIG)::

    host            required
    port            default 587 (465 with security "tls", 25 with "none")
    security        "starttls" (default: refuse a server that does not offer it), "tls" (implicit), "none"
    username, password   log in when given
    ca_file         CA bundle to verify the server with (default: the system's)
    pool_size       connections kept per worker process (default 4)
    timeout         seconds (default 30)

The MIME message is built with the standard library: multipart/alternative when there are text
and HTML parts, Message-ID (from the message id and the sender's domain), Date, Reply-To, the
request's custom headers (``List-Unsubscribe`` and ``List-Unsubscribe-Post`` among them, both
then covered by the signature, RFC 8058). Without a DKIM key the message is refused: Herald
sends only signed mail from verified domains. SMTP 4xx answers are transient, 5xx permanent,
a refused login is a configuration error.
"""

from __future__ import annotations

import asyncio
import ssl
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import formatdate, make_msgid, parseaddr

import aiosmtplib
import dkim

from providers.base import EmailProvider, Outgoing, Receipt
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError

# Headers a request may not set: the provider owns them.
RESERVED_HEADERS = {"from", "to", "cc", "bcc", "subject", "date", "message-id", "reply-to", "sender",
                    "mime-version", "content-type", "content-transfer-encoding", "dkim-signature",
                    "return-path", "received"}
SIGNED_HEADERS = [b"from", b"sender", b"reply-to", b"subject", b"date", b"message-id", b"to", b"cc",
                  b"mime-version", b"content-type", b"content-transfer-encoding", b"list-unsubscribe",
                  b"list-unsubscribe-post", b"x-herald-message-id"]


def build_message(message: Outgoing) -> EmailMessage:
    content = message.content or {}
    sender = message.sender or ""
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    mime = EmailMessage(policy=SMTP_POLICY)
    mime["From"] = sender
    mime["To"] = ", ".join(content.get("To") or [message.recipient])
    if content.get("Cc"):
        mime["Cc"] = ", ".join(content["Cc"])
    mime["Subject"] = message.subject or ""
    mime["Date"] = formatdate(usegmt=True)
    mime["Message-ID"] = make_msgid(idstring=message.message_id, domain=domain)
    if content.get("ReplyTo"):
        mime["Reply-To"] = ", ".join(content["ReplyTo"])
    mime["X-Herald-Message-Id"] = message.message_id
    for name, value in (content.get("Headers") or {}).items():
        if name.lower() in RESERVED_HEADERS or name.lower().startswith("x-herald-"):
            raise PermanentProviderError(f"header {name!r} cannot be set by a request")
        mime[name] = value
    text, html = content.get("Text"), content.get("Html")
    charset = content.get("Charset") or "utf-8"
    if text is not None:
        mime.set_content(text, charset=charset)
        if html is not None:
            mime.add_alternative(html, subtype="html", charset=charset)
    else:
        mime.set_content(html or "", subtype="html", charset=charset)
    return mime


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


class _Pool:
    """SMTP connections of one configuration, kept open and reused by this worker process."""

    def __init__(self, config: dict, size: int):
        self.config = config
        self.idle: list[aiosmtplib.SMTP] = []
        self.slots = asyncio.Semaphore(size)

    def _client(self) -> aiosmtplib.SMTP:
        config = self.config
        security = config.get("security", "starttls")
        if security not in ("starttls", "tls", "none"):
            raise ProviderConfigError(f"smtp security must be starttls, tls or none, not {security!r}")
        default_port = {"starttls": 587, "tls": 465, "none": 25}[security]
        tls_context = ssl.create_default_context(cafile=config["ca_file"]) if config.get("ca_file") else None
        return aiosmtplib.SMTP(
            hostname=config["host"], port=int(config.get("port") or default_port),
            username=config.get("username"), password=config.get("password"),
            use_tls=security == "tls", start_tls=security == "starttls",
            tls_context=tls_context, timeout=float(config.get("timeout", 30)),
            local_hostname=config.get("local_hostname"))

    async def send(self, sender: str, recipient: str, raw: bytes) -> None:
        async with self.slots:
            for reused in (True, False):
                client = self.idle.pop() if reused and self.idle else None
                fresh = client is None
                if fresh:
                    client = self._client()
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
                self.idle.append(client)
                return

    async def close(self) -> None:
        while self.idle:
            await _quit(self.idle.pop())


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
        self.pool = _Pool(self.config, int(self.config.get("pool_size", 4)))

    async def send(self, message: Outgoing) -> Receipt:
        if message.dkim is None:
            raise ProviderConfigError(f"no DKIM key for the sender domain of {message.sender!r}; "
                                      "add the domain with `herald domain add`")
        mime = build_message(message)
        raw = sign(mime.as_bytes(), message)
        envelope_from = parseaddr(message.sender or "")[1]
        try:
            await self.pool.send(envelope_from, message.recipient, raw)
        except aiosmtplib.SMTPAuthenticationError as error:
            raise ProviderConfigError(f"SMTP login refused: {error.code} {error.message}") from error
        except aiosmtplib.SMTPRecipientsRefused as error:
            refusal = error.recipients[0] if error.recipients else None
            code = refusal.code if refusal else 550
            text = refusal.message if refusal else str(error)
            raise (TransientProviderError if 400 <= code < 500 else PermanentProviderError)(
                f"SMTP refused the recipient: {code} {text}") from error
        except aiosmtplib.SMTPResponseException as error:
            if 400 <= error.code < 500:
                raise TransientProviderError(f"SMTP {error.code} {error.message}") from error
            raise PermanentProviderError(f"SMTP {error.code} {error.message}") from error
        except (aiosmtplib.SMTPException, OSError, asyncio.TimeoutError) as error:
            raise TransientProviderError(f"SMTP server unreachable: {error!r}") from error
        return Receipt(mime["Message-ID"].strip("<>"), {"MessageIdHeader": mime["Message-ID"]})

    async def close(self) -> None:
        await self.pool.close()
