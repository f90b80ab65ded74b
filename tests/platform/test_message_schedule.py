"""ScheduledAt on /v1/emails/send and POST /v1/emails/{id}/cancel, through the real platform, the
session's worker and scheduler (the pipeline) and the e-mail sink: a scheduled message answers 202
``queued``, shows its schedule, waits and then goes; a cancelled one never goes, even with the worker
running past its time; the quota counts a scheduled send at accept; a foreign id is 404."""

from __future__ import annotations

import asyncio
import secrets
from datetime import datetime, timedelta, timezone

from models.platform.message import Message
from providers.sink import read_calls
from tests.fixtures.platform import email, verify_domain, wait_status
from tests.fixtures.polling import until


def _at(seconds: float) -> str:
    return (datetime.now(timezone.utc) + timedelta(seconds=seconds)).isoformat(timespec="seconds").replace("+00:00",
                                                                                                             "Z")


def _sink_calls(services, message_id: str) -> list[dict]:
    return [call for call in read_calls(services.sink_dir / "email") if call["MessageId"] == message_id]


async def test_a_scheduled_email_is_queued_shows_its_time_and_goes_then(platform, sender, services, pipeline):
    due = _at(5)
    sent = await platform.post("/v1/emails/send", headers=sender.headers, json=email(ScheduledAt=due))
    assert sent.status_code == 202, sent.text
    assert sent.json()["Status"] == "queued"
    message_id = sent.json()["MessageId"]
    read = (await platform.get(f"/v1/emails/{message_id}", headers=sender.headers)).json()
    assert read["Message"]["Status"] == "queued" and read["Message"]["ScheduledAt"] == due
    assert read["Events"][0] == {"Type": "queued", "At": read["Events"][0]["At"], "Detail": {"ScheduledAt": due}}

    # Nothing goes before its time, then it goes (the worker's delayed job, or the reconciler).
    await asyncio.sleep(2)
    if datetime.now(timezone.utc) < datetime.fromisoformat(due) - timedelta(seconds=1):  # a slow machine: skipped
        assert (await Message.get(public_id=message_id)).status == "queued" and not _sink_calls(services, message_id)
    done = await wait_status(platform, sender.headers, message_id, "sent", seconds=90)
    sending = next(event for event in done["Events"] if event["Type"] == "sending")
    assert datetime.fromisoformat(sending["At"]) >= datetime.fromisoformat(due)
    assert len(_sink_calls(services, message_id)) == 1


async def test_a_cancelled_email_never_goes(platform, sender, services, pipeline):
    due = _at(4)  # the cancel follows at once
    sent = await platform.post("/v1/emails/send", headers=sender.headers, json=email(ScheduledAt=due))
    message_id = sent.json()["MessageId"]
    # A second e-mail due at the same time, not cancelled: once it is sent, the worker has run past the time.
    control = await platform.post("/v1/emails/send", headers=sender.headers, json=email(ScheduledAt=due))
    cancelled = await platform.post(f"/v1/emails/{message_id}/cancel", headers=sender.headers)
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["MessageId"] == message_id and cancelled.json()["Cancelled"] is True
    again = await platform.post(f"/v1/emails/{message_id}/cancel", headers=sender.headers)
    assert again.status_code == 409 and again.json()["Error"]["Code"] == "Conflict"

    # The worker runs past the time (the other one goes): the message stays cancelled and reaches no provider.
    await wait_status(platform, sender.headers, control.json()["MessageId"], "sent", seconds=60)
    await asyncio.sleep(1)
    read = (await platform.get(f"/v1/emails/{message_id}", headers=sender.headers)).json()
    assert read["Message"]["Status"] == "failed" and read["Message"]["FailureReason"].startswith("Cancelled")
    assert [event["Type"] for event in read["Events"]] == ["queued", "cancelled"]
    assert not _sink_calls(services, message_id)


async def test_cancel_is_409_once_sending_has_started_and_404_for_a_foreign_or_missing_id(
        platform, sender, make_account, services, pipeline):
    from models.platform.api_key import KeyKind
    from models.platform.scopes import DEMO_SCOPES

    now = await platform.post("/v1/emails/send", headers=sender.headers, json=email())
    message_id = now.json()["MessageId"]
    await wait_status(platform, sender.headers, message_id, "sent", seconds=60)
    late = await platform.post(f"/v1/emails/{message_id}/cancel", headers=sender.headers)
    assert late.status_code == 409 and late.json()["Error"]["Details"] == {"Status": "sent"}

    other = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST)
    scheduled = (await platform.post("/v1/emails/send", headers=other.headers,
                                     json=email(ScheduledAt=_at(3600)))).json()["MessageId"]
    foreign = await platform.post(f"/v1/emails/{scheduled}/cancel", headers=sender.headers)
    missing = await platform.post(f"/v1/emails/msg_{'0' * 24}/cancel", headers=sender.headers)
    assert foreign.status_code == 404 and missing.status_code == 404
    assert foreign.json()["Error"]["Code"] == missing.json()["Error"]["Code"] == "NotFound"
    assert (await Message.get(public_id=scheduled)).status == "queued"
    reader = await make_account(scopes=("email:read",), kind=KeyKind.TEST)
    assert (await platform.post(f"/v1/emails/{scheduled}/cancel", headers=reader.headers)).status_code == 403
    assert (await platform.post(f"/v1/emails/{scheduled}/cancel", headers=other.headers)).status_code == 200


async def test_scheduled_at_is_bounded_and_the_quota_counts_at_accept(platform, make_account):
    account = await make_account(scopes=("email:send", "email:read"), quota=1)
    name = f"quota{secrets.token_hex(4)}.example"
    await verify_domain(account.tenant_id, name)
    source = f"hi@{name}"
    for bad, reason in ((_at(73 * 3600), "at most 72 hours ahead"), ("tomorrow at nine", "RFC 3339"),
                        ("2026-02-30T09:00:00Z", "not a valid time")):
        refused = await platform.post("/v1/emails/send", headers=account.headers,
                                      json=email(source=source, ScheduledAt=bad))
        assert refused.status_code == 422, refused.text
        assert reason in refused.json()["Error"]["Details"]["ScheduledAt"]
    first = await platform.post("/v1/emails/send", headers=account.headers,
                                json=email(source=source, ScheduledAt=_at(71 * 3600)))
    assert first.status_code == 202, first.text
    over = await platform.post("/v1/emails/send", headers=account.headers, json=email(source=source))
    assert over.status_code == 429 and over.json()["Error"]["Code"] == "QuotaExceeded"
    # Cancelled, it is not sent; the month's count stays what was accepted.
    message_id = first.json()["MessageId"]
    assert (await platform.post(f"/v1/emails/{message_id}/cancel", headers=account.headers)).status_code == 200
    assert await until(lambda: _status(message_id, "failed"), what="cancelled")


async def _status(message_id: str, status: str) -> bool:
    return (await Message.get(public_id=message_id)).status == status
