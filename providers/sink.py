"""Development sinks, one per channel: they record what they would send, under
``<var>/sink/<channel>/<message id>.json``.

A sink honours the idempotency key like a provider that supports one: the record is created
exclusively, so a message delivered again after an unknown outcome is recorded once, and the
second delivery gets the first receipt back.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

from providers.base import EmailProvider, Outgoing, PushProvider, Receipt, SmsProvider, WhatsappProvider


class _Sink:
    key = "sink"

    @property
    def directory(self) -> Path:
        root = self.config.get("directory") or os.environ.get("HERALD_SINK_DIR") or \
            Path(os.environ.get("HERALD_VAR_DIR", "var")) / "sink"
        path = Path(root) / self.channel
        path.mkdir(parents=True, exist_ok=True)
        return path

    async def send(self, message: Outgoing) -> Receipt:
        record = {
            "MessageId": message.message_id, "TenantId": message.tenant_id, "Channel": message.channel,
            "To": message.recipient, "From": message.sender, "Subject": message.subject,
            "Content": message.content, "Tags": message.tags, "Mode": message.mode,
            "RecordedAt": datetime.now(timezone.utc).isoformat(),
        }
        path = self.directory / f"{message.idempotency_key}.json"
        receipt = Receipt(f"sink-{message.message_id}", {"path": str(path)})
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            # Seen before: deliver nothing, but keep a trace of the repeated attempt.
            with open(self.directory / "repeated-attempts.log", "a") as log:
                log.write(message.message_id + "\n")
            return Receipt(receipt.provider_message_id, {**receipt.detail, "duplicate": True})
        with os.fdopen(fd, "w") as out:
            json.dump(record, out)
        return receipt


class EmailSink(_Sink, EmailProvider):
    pass


class SmsSink(_Sink, SmsProvider):
    pass


class PushSink(_Sink, PushProvider):
    pass


class WhatsappSink(_Sink, WhatsappProvider):
    pass
