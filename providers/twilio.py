"""SMS through Twilio's Messages API (``POST /2010-04-01/Accounts/{sid}/Messages.json``) over httpx.

Configuration::

    account_sid, auth_token     required (HTTP basic auth; also what signs the status callbacks)
    from                        default sender number (E.164), used when the request has no From
    messaging_service_sid       alternative to ``from``
    status_callback_url         base of the status callback (``{PLATFORM_URL}/callbacks/twilio``);
                                the tenant id is appended, so the callback knows whose token signs it
    base_url                    default https://api.twilio.com (a tenant's goes through kit.egress)

The receipt records the body's segments (GSM-7 or UCS-2, :mod:`providers.sms_segments`).
"""

from __future__ import annotations

import re

from providers.base import Outgoing, Receipt, SmsProvider
from providers.errors import PermanentProviderError, ProviderConfigError
from providers.http import HttpProvider, describe, raise_for_answer
from providers.sms_segments import segments

STATUS_WORD = re.compile(r"^[a-z_-]{1,32}$")
# Twilio error codes that mean "this number never will": permanent even when the status says otherwise.
PERMANENT_CODES = {21211, 21212, 21214, 21408, 21610, 21612, 21614}


class TwilioProvider(HttpProvider, SmsProvider):
    key = "twilio"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        missing = [name for name in ("account_sid", "auth_token") if not self.config.get(name)]
        if missing:
            raise ProviderConfigError(f"twilio provider needs {', '.join(missing)}")
        self.base_url = self.config.get("base_url", "https://api.twilio.com").rstrip("/")

    async def send(self, message: Outgoing) -> Receipt:
        body = (message.content or {}).get("Body", "")
        form = {"To": message.recipient, "Body": body}
        sender = message.sender or self.config.get("from")
        if sender:
            form["From"] = sender
        elif self.config.get("messaging_service_sid"):
            form["MessagingServiceSid"] = self.config["messaging_service_sid"]
        else:
            raise ProviderConfigError("twilio: no From in the request and no default 'from' or "
                                      "'messaging_service_sid' configured")
        if self.config.get("status_callback_url"):
            form["StatusCallback"] = f"{self.config['status_callback_url'].rstrip('/')}/{message.tenant_id}"
        sid = self.config["account_sid"]
        response = await self.post(f"{self.base_url}/2010-04-01/Accounts/{sid}/Messages.json", "twilio",
                                   data=form, auth=(sid, self.config["auth_token"]))
        if response.status_code == 400:
            try:
                code = int(response.json().get("code") or 0)
            except ValueError:
                code = 0
            raise PermanentProviderError(f"twilio refused the message (error {code}): {describe(response)}")
        raise_for_answer(response, "twilio")
        answer = response.json()
        encoding, count = segments(body)
        # Recorded on the timeline: only a status word, whatever the server put there.
        status = answer.get("status")
        status = status if isinstance(status, str) and STATUS_WORD.match(status) else None
        return Receipt(answer["sid"], {"Segments": count, "Encoding": encoding, "TwilioStatus": status})
