"""E-mail through SendGrid's v3 Mail Send API (``POST /v3/mail/send``) over httpx.

Configuration (``settings`` and ``secrets`` of the account's row, or EMAIL_PROVIDER_CONFIG)::

    api_key             required (``Authorization: Bearer``), a key with the Mail Send permission
    base_url            default https://api.sendgrid.com (a tenant's goes through kit.egress)
    timeout             seconds (default 15)
    verification_key    the Signed Event Webhook's public key (base64 DER, as SendGrid shows it):
                        what the account's event callback checks (app/platform/relay_event/sendgrid.py)

SendGrid signs the mail with DKIM for the domains authenticated in its account (its "Domain
Authentication"): the sender domain must be set up there too. The answer is 202 with the message's
id in ``X-Message-Id``; it is kept as the provider message id, which SendGrid's events carry as the
first part of ``sg_message_id``. Herald's message id also goes along as a custom argument
(``herald_message_id``, in every event) and the ``X-Herald-Message-Id`` header.
Errors: 429 and 5xx transient (``Retry-After`` honoured, else ``X-RateLimit-Reset``), 401/403 a
configuration error, any other 4xx permanent with SendGrid's error fields named, never its text.
"""

from __future__ import annotations

import re
import time

from providers import relay_parts
from providers.base import EmailProvider, Outgoing, Receipt
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer, retry_after

MESSAGE_ID = re.compile(r"^[A-Za-z0-9_.=-]{1,200}$")
FIELD_NAME = re.compile(r"^[A-Za-z0-9_.\[\]-]{1,64}$")


class SendgridProvider(HttpProvider, EmailProvider):
    key = "sendgrid"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        if not self.config.get("api_key"):
            raise ProviderConfigError("sendgrid provider needs api_key")
        self.base_url = str(self.config.get("base_url") or "https://api.sendgrid.com").rstrip("/")

    def body(self, message: Outgoing) -> dict:
        recipient = relay_parts.mailbox("the recipient", message.recipient)[0]
        text, html = relay_parts.bodies(message)
        content = [{"type": "text/plain", "value": text}] if text is not None else []
        if html is not None:
            content.append({"type": "text/html", "value": html})
        body: dict = {
            "personalizations": [{"to": [{"email": recipient}]}],
            "from": _party("the From address", message.sender or ""),
            "subject": message.subject or "",
            "content": content,
            "headers": relay_parts.headers(message),
            "custom_args": {"herald_message_id": message.message_id},
        }
        reply_to = (message.content or {}).get("ReplyTo") or []
        if reply_to:
            body["reply_to_list"] = [_party("a Reply-To address", text) for text in reply_to]
        files = relay_parts.files(message)
        if files:
            body["attachments"] = [{**item, "disposition": "attachment"} for item in files]
        return body

    async def send(self, message: Outgoing) -> Receipt:
        response = await self.post(f"{self.base_url}/v3/mail/send", "sendgrid", json=self.body(message),
                                   headers={"Authorization": f"Bearer {self.config['api_key']}"})
        if response.status_code == 429:
            wait = retry_after(response)
            if wait is None and response.headers.get("x-ratelimit-reset", "").isdigit():
                wait = max(0.0, int(response.headers["x-ratelimit-reset"]) - time.time())
            raise TransientProviderError(f"sendgrid answered {describe(response)}", retry_after=wait)
        if response.status_code in (400, 413):
            raise PermanentProviderError(f"sendgrid refused the message ({_fields(response)}): {describe(response)}")
        raise_for_answer(response, "sendgrid")
        provider_id = response.headers.get("x-message-id", "")
        if not MESSAGE_ID.match(provider_id):
            raise TransientProviderError("sendgrid answered without a readable X-Message-Id")
        return Receipt(provider_id, {"SendgridMessageId": provider_id})


def _party(what: str, text: str) -> dict[str, str]:
    email, name = relay_parts.mailbox(what, text)
    return {"email": email, "name": name} if name else {"email": email}


def _fields(response) -> str:
    """The fields SendGrid's errors name (``{"errors": [{"field": ...}]}``), checked to be names."""
    try:
        errors = response.json().get("errors") or []
    except (ValueError, AttributeError):
        return "no details"
    names = sorted({error.get("field") for error in errors if isinstance(error, dict)
                    and isinstance(error.get("field"), str) and FIELD_NAME.match(error["field"])})
    return "fields " + ", ".join(names) if names else "no field named"
