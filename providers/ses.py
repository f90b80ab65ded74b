"""E-mail through Amazon SES, API v2 ``SendEmail`` (``POST /v2/email/outbound-emails``), SigV4-signed.

Configuration::

    region                      required (``eu-west-1``); the endpoint is https://email.<region>.amazonaws.com
    access_key_id, secret_access_key   required (an IAM user allowed ``ses:SendEmail``)
    session_token               for temporary credentials
    configuration_set           the configuration set whose event destination is the SNS topic
                                that reports deliveries, bounces and complaints (docs/relays.md)
    base_url                    instead of the regional endpoint (a tenant's goes through kit.egress)
    timeout                     seconds (15)

The message goes as raw MIME built by the SMTP provider's builder (:func:`providers.smtp.build_message`),
so its headers and attachments are exactly the ones SMTP would send; SES signs it with the
domain's Easy DKIM key, not Herald's (docs/relays.md). The MAIL FROM is SES's (or the account's
custom MAIL FROM domain): bounces come back as SNS events, not to Herald's VERP return path.
SES's ``MessageId`` is kept as the message's provider id, which the SNS events name.
"""

from __future__ import annotations

import base64
import json

from kit import aws_sigv4
from providers.base import EmailProvider, Outgoing, Receipt
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer, retry_after
from providers.smtp import build_message

PATH = "/v2/email/outbound-emails"
# SES error types (the ``X-Amzn-ErrorType`` header) that mean more than their HTTP status.
THROTTLED = {"TooManyRequestsException", "LimitExceededException", "ThrottlingException"}
CONFIGURATION = {"AccountSuspendedException", "SendingPausedException", "MailFromDomainNotVerifiedException",
                 "NotFoundException", "InvalidClientTokenId", "SignatureDoesNotMatch", "AccessDeniedException"}


def error_type(response) -> str:
    raw = response.headers.get("x-amzn-errortype") or ""
    if not raw:
        try:
            answer = response.json()
            raw = str(answer.get("__type") or answer.get("code") or "") if isinstance(answer, dict) else ""
        except ValueError:
            raw = ""
    # "MessageRejected:http://internal.amazon.com/coral/..." or "com.amazon...#MessageRejected"
    return raw.split(":", 1)[0].rsplit("#", 1)[-1].strip()[:64]


class SesProvider(HttpProvider, EmailProvider):
    key = "ses"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        missing = [name for name in ("region", "access_key_id", "secret_access_key") if not self.config.get(name)]
        if missing:
            raise ProviderConfigError(f"ses provider needs {', '.join(missing)}")
        self.region = str(self.config["region"])
        self.base_url = self.config.get("base_url", f"https://email.{self.region}.amazonaws.com").rstrip("/")

    def request_body(self, message: Outgoing) -> bytes:
        content = message.content or {}
        raw = build_message(message).as_bytes()
        body: dict = {"Content": {"Raw": {"Data": base64.b64encode(raw).decode()}},
                      "Destination": {"ToAddresses": list(content.get("To") or [message.recipient])}}
        if message.sender:
            body["FromEmailAddress"] = message.sender
        if self.config.get("configuration_set"):
            body["ConfigurationSetName"] = self.config["configuration_set"]
        body["EmailTags"] = [{"Name": "herald-message-id", "Value": message.message_id}]
        return json.dumps(body).encode()

    async def send(self, message: Outgoing) -> Receipt:
        url = self.base_url + PATH
        body = self.request_body(message)
        headers = aws_sigv4.sign("POST", url, {"Content-Type": "application/json"}, body,
                                 access_key=self.config["access_key_id"], secret_key=self.config["secret_access_key"],
                                 region=self.region, service="ses", session_token=self.config.get("session_token"))
        headers.pop("Host")  # httpx sends the same one
        response = await self.post(url, "ses", content=body, headers=headers)
        if response.status_code >= 300:
            kind = error_type(response)
            if kind in THROTTLED:
                raise TransientProviderError(f"ses throttled the message ({kind}): {describe(response)}",
                                             retry_after=retry_after(response))
            if kind in CONFIGURATION:
                raise ProviderConfigError(f"ses refused the configuration ({kind}): {describe(response)}")
            if response.status_code == 400:
                raise PermanentProviderError(f"ses refused the message ({kind or 'error'}): {describe(response)}")
        raise_for_answer(response, "ses")
        try:
            message_id = response.json()["MessageId"]
        except (ValueError, KeyError, TypeError):
            raise TransientProviderError(f"ses answered without a MessageId: {describe(response)}") from None
        return Receipt(str(message_id)[:255], {"Relay": "ses", "RelayMessageId": str(message_id)[:255]})
