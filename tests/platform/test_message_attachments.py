"""Attachments on /v1/emails/send through the real platform, the session's pipeline and the e-mail
sink: bounded (413 past 10 MB decoded, a cap on the batch request too), blocked types refused (422),
stored sealed until the message is final and then dropped (names and sizes stay), listed on a read,
and in the request log only as the content marker. Arrival over SMTP, DKIM-signed with the file
intact, is tests/mail/test_email_attachments.py."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re

from models.platform.message import Message
from models.platform.request_log import RequestLog
from providers.sink import read_calls
from tests.fixtures.platform import email, wait_status
from tests.fixtures.polling import until

MB = 1024 * 1024


def _file(name: str, data: bytes, kind: str | None = None) -> dict:
    item = {"Filename": name, "Content": base64.b64encode(data).decode()}
    if kind:
        item["ContentType"] = kind
    return item


async def test_an_attachment_is_sealed_until_sent_then_dropped(platform, sender, services, pipeline):
    data = b"%PDF-1.4 invoice 1042 " + os.urandom(2048)
    sent = await platform.post("/v1/emails/send", headers=sender.headers, json=email(
        Attachments=[_file("invoice-1042.pdf", data)]))
    assert sent.status_code == 202, sent.text
    message_id = sent.json()["MessageId"]
    done = await wait_status(platform, sender.headers, message_id, "sent", seconds=60)
    listed = {"Filename": "invoice-1042.pdf", "ContentType": "application/pdf", "Size": len(data),
              "Sha256": hashlib.sha256(data).hexdigest()}
    assert done["Message"]["Attachments"] == [listed]
    # The provider was handed the file's description (the sink records it), never the sealed bytes.
    [call] = [call for call in read_calls(services.sink_dir / "email") if call["MessageId"] == message_id]
    assert "Sealed" not in json.dumps(call)
    # Final: the sealed bytes are gone from the row, the description stays.
    row = await Message.get(public_id=message_id)
    assert row.content["Attachments"] == [listed]


async def test_a_queued_attachment_is_sealed_at_rest(platform, sender):
    data = b"quarterly figures " * 64
    sent = await platform.post("/v1/emails/send", headers=sender.headers, json=email(
        ScheduledAt="2099-01-01T00:00:00Z", Attachments=[_file("figures.csv", data)]))
    # 2099 is past the 72 hours: refused, nothing written.
    assert sent.status_code == 422
    from datetime import datetime, timedelta, timezone

    due = (datetime.now(timezone.utc) + timedelta(hours=2)).isoformat(timespec="seconds").replace("+00:00", "Z")
    sent = await platform.post("/v1/emails/send", headers=sender.headers, json=email(
        ScheduledAt=due, Attachments=[_file("figures.csv", data)]))
    assert sent.status_code == 202, sent.text
    row = await Message.get(public_id=sent.json()["MessageId"])
    [stored] = row.content["Attachments"]
    assert stored["Sealed"].startswith("v1.") and stored["ContentType"] == "text/csv"
    assert base64.b64encode(data).decode()[:40] not in json.dumps(row.content) and b"quarterly" not in \
        json.dumps(row.content).encode()
    # Reads describe the files, never hand out their sealed bytes.
    read = await platform.get(f"/v1/emails/{row.public_id}", headers=sender.headers)
    listing = await platform.get("/v1/emails", headers=sender.headers, params={"status": "queued"})
    assert read.json()["Message"]["Attachments"][0]["Size"] == len(data)
    assert "Sealed" not in read.text and stored["Sealed"][:40] not in listing.text
    assert row.public_id in listing.text
    cancelled = await platform.post(f"/v1/emails/{row.public_id}/cancel", headers=sender.headers)
    assert cancelled.status_code == 200
    await row.refresh_from_db()
    assert "Sealed" not in row.content["Attachments"][0]  # final: dropped at the transition


async def test_sizes_types_and_encoding_are_refused_clearly(platform, sender):
    big = await platform.post("/v1/emails/send", headers=sender.headers, json=email(
        Attachments=[_file("a.bin", b"\0" * (6 * MB)), _file("b.bin", b"\0" * (4 * MB + 1))]))
    assert big.status_code == 413, big.text
    assert big.json()["Error"]["Code"] == "PayloadTooLarge" and "10485760" in big.json()["Error"]["Message"]
    for name in ("setup.exe", "Invoice.PDF.js", "run.BAT", "macro.vbs", "screen.scr"):
        blocked = await platform.post("/v1/emails/send", headers=sender.headers, json=email(
            Attachments=[_file(name, b"MZ")]))
        assert blocked.status_code == 422, (name, blocked.text)
        assert "blocked" in blocked.json()["Error"]["Message"]
    not_base64 = await platform.post("/v1/emails/send", headers=sender.headers, json=email(
        Attachments=[{"Filename": "a.txt", "Content": "not base64!"}]))
    assert not_base64.status_code == 400 and not_base64.json()["Error"]["Code"] == "ValidationError"
    for bad in ({"Filename": "../etc/passwd", "Content": "YQ=="}, {"Filename": "a.txt", "Content": "YQ==",
                                                                    "ContentType": "text/plain\r\nBcc: x"}):
        refused = await platform.post("/v1/emails/send", headers=sender.headers, json=email(Attachments=[bad]))
        assert refused.status_code == 400, refused.text
    # Every recipient's message keeps its copy: a request stores at most 50 MiB of them.
    many = [f"r{index}@example.com" for index in range(26)]
    fanned = await platform.post("/v1/emails/send", headers=sender.headers, json=email(
        to=many, Attachments=[_file("deck.bin", b"\0" * (2 * MB))]))
    assert fanned.status_code == 413 and "fewer recipients" in fanned.json()["Error"]["Message"]
    item = email(to=many[:20], Attachments=[_file("deck.bin", b"\0" * MB)])
    batch = await platform.post("/v1/emails/batch", headers=sender.headers, json={"Messages": [item] * 3})
    assert batch.status_code == 202, batch.text
    results = batch.json()["Results"]
    assert [bool(result.get("MessageIds")) for result in results] == [True, True, False]
    assert results[2]["Error"]["Code"] == "PayloadTooLarge"
    # The batch request as a whole is bounded too (16 MiB).
    item = email(Attachments=[_file("a.bin", b"\0" * (4 * MB))])
    batch = await platform.post("/v1/emails/batch", headers=sender.headers, json={"Messages": [item] * 3})
    assert batch.status_code == 413 and batch.json()["Error"]["Code"] == "PayloadTooLarge"


async def test_the_request_log_keeps_an_attachment_as_content(platform, sender):
    secret = b"the contract says 4.2 million " + os.urandom(8).hex().encode()
    sent = await platform.post("/v1/emails/send", headers=sender.headers, json=email(
        Attachments=[_file("contract-draft.txt", secret, "text/plain")]))
    assert sent.status_code == 202, sent.text
    request_id = sent.headers["X-Request-Id"]
    row = await until(lambda: RequestLog.filter(request_id=request_id).first(), seconds=30, what="the request log")
    kept = json.loads(row.request_body)
    [attachment] = kept["Attachments"]
    for value in attachment.values():
        assert re.fullmatch(r"\[redacted len=\d+ sha256=[0-9a-f]{16}\]", value), value
    encoded = base64.b64encode(secret).decode()
    assert encoded not in row.request_body and "contract-draft" not in row.request_body
