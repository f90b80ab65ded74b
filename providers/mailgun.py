"""E-mail through Mailgun's Messages API (``POST /v3/<domain>/messages``, basic auth ``api:<key>``).

Configuration::

    domain                      required (the sending domain verified at Mailgun)
    api_key                     required (a Mailgun API key for that domain)
    webhook_signing_key         what signs the account's webhooks (app/platform/relay_event/mailgun.py)
    base_url                    default https://api.mailgun.net (EU: https://api.eu.mailgun.net;
                                a tenant's goes through kit.egress)
    timeout                     seconds (15)

Mailgun signs with the domain's DKIM key set up there. Its message id (``<...@domain>``) is kept
without the angle brackets: that is how its webhooks name the message (``message.headers.message-id``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from providers.base import EmailProvider, Outgoing, Receipt
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer
from providers.relay_mail import headers_of


class MailgunProvider(HttpProvider, EmailProvider):
    key = "mailgun"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        missing = [name for name in ("domain", "api_key") if not self.config.get(name)]
        if missing:
            raise ProviderConfigError(f"mailgun provider needs {', '.join(missing)}")
        self.base_url = self.config.get("base_url", "https://api.mailgun.net").rstrip("/")

    def form(self, message: Outgoing) -> list[tuple[str, str]]:
        content = message.content or {}
        form = [("from", message.sender or ""), *(("to", to) for to in content.get("To") or [message.recipient])]
        form += [("cc", cc) for cc in content.get("Cc") or []]
        form.append(("subject", message.subject or ""))
        if content.get("Text") is not None:
            form.append(("text", content["Text"]))
        if content.get("Html") is not None:
            form.append(("html", content["Html"]))
        if content.get("ReplyTo"):
            form.append(("h:Reply-To", ", ".join(content["ReplyTo"])))
        form += [(f"h:{name}", value) for name, value in headers_of(message)]
        form.append(("v:herald-message-id", message.message_id))
        return form

    async def send(self, message: Outgoing) -> Receipt:
        url, auth = f"{self.base_url}/v3/{self.config['domain']}/messages", ("api", self.config["api_key"])
        if message.attachments:  # files need multipart/form-data (Mailgun's `attachment` fields)
            fields: dict[str, list[str]] = {}
            for name, value in self.form(message):
                fields.setdefault(name, []).append(value)
            files = [("attachment", (file.filename, file.data, file.content_type)) for file in message.attachments]
            response = await self.post(url, "mailgun", data=fields, files=files, auth=auth)
        else:
            response = await self.post(url, "mailgun", content=urlencode(self.form(message)).encode(), auth=auth,
                                       headers={"Content-Type": "application/x-www-form-urlencoded"})
        if response.status_code == 404:  # no such domain at Mailgun: no message of this configuration goes
            raise ProviderConfigError(f"mailgun does not know the domain: {describe(response)}")
        if response.status_code in (400, 402, 413):
            raise PermanentProviderError(f"mailgun refused the message: {describe(response)}")
        raise_for_answer(response, "mailgun")
        try:
            message_id = str(response.json()["id"]).strip().strip("<>")
        except (ValueError, KeyError, TypeError):
            raise TransientProviderError(f"mailgun answered without an id: {describe(response)}") from None
        return Receipt(message_id[:255], {"Relay": "mailgun", "RelayMessageId": str(message_id)[:255]})
