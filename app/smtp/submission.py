"""A submitted message, sent through the platform's internal send route (the one accept path of
``/v1/emails/send``: the verified-sender check, idempotency, quota, the outbox, DKIM at delivery).

The recipients are the RCPT TO list, not the headers: a ``Bcc`` header is dropped (its addresses
are among the RCPTs), and each recipient gets a message of their own showing only their address.
The From header, the Subject, Reply-To, the text and html parts and the attached files come from
the MIME message (``email``, policy.default). Every other header the client wrote is carried as a
custom header (``In-Reply-To`` and ``References`` keep a reply in its thread, ``List-Unsubscribe``,
``X-*``), as /v1/emails/send takes ``Headers``, except the ones Herald writes itself
(kit/email_headers.py: ``Cc`` among them, since each recipient's copy shows only their own address),
the ``Content-*`` headers of the MIME structure Herald builds again, and trace and authentication
headers that would be false once Herald re-signs the message (:data:`NOT_CARRIED`). A carried header
given twice, longer than a line may be, or more than 50 of them: refused whole, with the header
named. The route takes at most :data:`BATCH` recipients
a call, so a message for more goes in several calls, each with an idempotency key made from the
message, the key and the batch: a client that retries after a 451 sends nothing twice.

Refusals of the platform, as SMTP replies::

    422 RemetenteNaoVerificado        550 5.7.1 (the From is not on a verified domain of the account)
    422 other (no Subject, no body)   550 5.6.0 with the platform's message
    429 QuotaExceeded                 552 5.2.2
    429 Throttling, the key's window  421 4.7.0
    403 (suspended), 404, 409         550 5.7.1 / 550 5.6.0
    413                               552 5.3.4
    unreachable, 5xx, 503             451 4.3.0 (VerificacaoIndisponivel included)
"""

from __future__ import annotations

import base64
import hashlib
from email.message import EmailMessage
from typing import Any
from urllib.parse import quote

from app.smtp.auth import Sender
from app.smtp.mime import body_of, parse
from app.smtp.upstream import Refusal, Upstream
from kit.email_headers import HEADER_NAME, MAX_CUSTOM_HEADERS, MAX_HEADER_VALUE, reserved_email_header

SEND = "/internal/v1/tenants/{account}/messages/send"
BATCH = 50
# Headers of the path so far or of the signature Herald replaces: carried, they would be false.
NOT_CARRIED = frozenset({"authentication-results", "received-spf", "delivered-to", "x-original-to", "arc-seal",
                         "arc-message-signature", "arc-authentication-results", "domainkey-signature"})


def custom_headers_of(message: EmailMessage) -> dict[str, str]:
    """The client's own headers, as the send route's ``Headers``; :class:`Refusal` when one cannot go."""
    carried: dict[str, str] = {}
    for name in message.keys():
        lowered = name.lower()
        if reserved_email_header(name) or lowered.startswith("content-") or lowered in NOT_CARRIED:
            continue
        if not HEADER_NAME.match(name):
            raise Refusal(f"550 5.6.0 The header name {name.encode('unicode_escape').decode()!r} is not valid")
        if any(known.lower() == lowered for known in carried):
            raise Refusal(f"550 5.6.0 The header {name} is given twice; Herald carries each custom header once")
        value = " ".join(str(message.get(name, "")).split())
        if len(value) > MAX_HEADER_VALUE:
            raise Refusal(f"550 5.6.0 The header {name} is longer than {MAX_HEADER_VALUE} characters")
        carried[name] = value
    if len(carried) > MAX_CUSTOM_HEADERS:
        raise Refusal(f"550 5.6.0 The message has {len(carried)} custom headers; at most {MAX_CUSTOM_HEADERS} are "
                      "carried")
    return carried


def payload_of(message: EmailMessage, sender: Sender) -> dict[str, Any]:
    """The send route's body for this message (recipients apart); :class:`Refusal` when it cannot go."""
    del message["Bcc"]
    sender_header = str(message.get("From") or "").strip()
    if not sender_header:
        raise Refusal("550 5.6.0 The message has no From header")
    text, html = body_of(message, "plain"), body_of(message, "html")
    if text is None and html is None:
        raise Refusal("550 5.6.0 The message has no text or html part")
    payload: dict[str, Any] = {"Channel": "email", "From": sender_header, "Subject": str(message.get("Subject") or ""),
                               "Text": text, "Html": html, "Mode": sender.mode, "ApiKeyId": sender.key_id}
    try:
        reply_to = [address.addr_spec for address in message["Reply-To"].addresses] if message["Reply-To"] else []
    except (AttributeError, IndexError, ValueError):
        raise Refusal("550 5.6.0 The Reply-To header is not a list of addresses") from None
    if reply_to:
        payload["ReplyTo"] = reply_to
    headers = custom_headers_of(message)
    if headers:
        payload["Headers"] = headers
    # The files, as /v1/emails/send takes them (the platform bounds them: 413 is 552 5.3.4, a blocked
    # type 550 5.6.0 with its words).
    files = [{"Filename": part.get_filename() or "attachment", "ContentType": part.get_content_type(),
              "Content": base64.b64encode(part.get_payload(decode=True) or b"").decode("ascii")}
             for part in message.iter_attachments()]
    if files:
        payload["Attachments"] = files
    return payload


def refusal_of(status: int, code: str | None, text: str) -> Refusal:
    text = " ".join(text.split())[:300] or "The platform refused the message."
    if code == "RemetenteNaoVerificado":
        return Refusal(f"550 5.7.1 Sender not verified: {text}")
    if code == "QuotaExceeded":
        return Refusal(f"552 5.2.2 Quota exceeded: {text}")
    if status == 429:
        return Refusal(f"421 4.7.0 Rate limit reached: {text}")
    if status == 413:
        return Refusal(f"552 5.3.4 Message too big for sending: {text}")
    if status == 403:
        return Refusal(f"550 5.7.1 {text}")
    return Refusal(f"550 5.6.0 {text}")


async def submit(upstream: Upstream, sender: Sender, recipients: list[str], raw: bytes) -> list[str]:
    """The message ids the platform made, one per recipient."""
    if sender.rate_limit is not None:  # the key's window, the same Redis bucket as its HTTP calls
        limit, window = sender.rate_limit
        decision = await upstream.limiter.hit(f"key:{sender.key_id}", limit, window)
        if not decision.allowed:
            raise Refusal(f"421 4.7.0 Rate limit of the key reached; try again in {decision.retry_after} s")
    payload = payload_of(parse(raw), sender)
    digest = hashlib.sha256(sender.key_id.encode() + b"\0" + "\0".join(recipients).encode() + b"\0" + raw)
    path = SEND.format(account=quote(sender.tenant_id, safe=""))
    ids: list[str] = []
    for start in range(0, len(recipients), BATCH):
        body = {**payload, "Recipients": recipients[start:start + BATCH],
                "IdempotencyKey": f"smtp-{digest.hexdigest()[:48]}-{start // BATCH}"}
        answer = await upstream.call(upstream.platform, "POST", path, json=body)
        if not answer.ok:
            envelope = answer.body.get("Error") if isinstance(answer.body, dict) else None
            message = str(envelope.get("Message") or "") if isinstance(envelope, dict) else ""
            raise refusal_of(answer.status, answer.error_code, message)
        ids += [item["MessageId"] for item in answer.body["Messages"]]
    return ids
