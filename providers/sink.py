"""Development sinks, one per channel: they record what they would send, under
``<var>/sink/<channel>/<message id>.json``.

A sink honours the idempotency key like a provider that supports one: the record is created
exclusively (whole, never seen half written), so a message delivered again after an unknown outcome is recorded once, and the
second delivery gets the first receipt back.

Every call is also appended to ``<var>/sink/<channel>/calls.log`` as it arrives, repeats
included, one JSON line each (``{"MessageId", "IdempotencyKey", "At"}``): what a real provider
would have been asked to do, which the exclusive record hides. Tests count provider calls there.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

from providers.base import EmailProvider, Outgoing, PushProvider, Receipt, SmsProvider, WhatsappProvider

CALLS_LOG = "calls.log"


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
        self._note_call(message)
        record = {
            "MessageId": message.message_id, "TenantId": message.tenant_id, "Channel": message.channel,
            "To": message.recipient, "From": message.sender, "Subject": message.subject,
            "Content": message.content, "Tags": message.tags, "Mode": message.mode,
            "RecordedAt": datetime.now(timezone.utc).isoformat(),
        }
        path = self.directory / f"{message.idempotency_key}.json"
        receipt = Receipt(f"sink-{message.message_id}", {"path": str(path)})
        # Written whole under a temporary name, then linked into place: link() fails when the record
        # exists (exclusive, like O_EXCL) and a reader never sees a record half written.
        temporary = self.directory / f".{message.idempotency_key}.{os.getpid()}.{id(record)}.tmp"
        temporary.write_text(json.dumps(record))
        try:
            os.link(temporary, path)
        except FileExistsError:
            # Seen before: deliver nothing (the call is in calls.log).
            return Receipt(receipt.provider_message_id, {**receipt.detail, "duplicate": True})
        finally:
            temporary.unlink()
        return receipt

    def _note_call(self, message: Outgoing) -> None:
        line = json.dumps({"MessageId": message.message_id, "IdempotencyKey": message.idempotency_key,
                           "At": datetime.now(timezone.utc).isoformat()}) + "\n"
        # One write of one short line with O_APPEND: whole lines, whichever process or thread writes.
        fd = os.open(self.directory / CALLS_LOG, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)


def read_calls(directory: Path) -> list[dict]:
    """The calls a sink received, in order, from its channel directory (``<var>/sink/<channel>``)."""
    path = Path(directory) / CALLS_LOG
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line]


class EmailSink(_Sink, EmailProvider):
    pass


class SmsSink(_Sink, SmsProvider):
    pass


class PushSink(_Sink, PushProvider):
    pass


class WhatsappSink(_Sink, WhatsappProvider):
    pass
