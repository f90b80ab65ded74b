"""The contract's send rules as properties of the one accept path (app/platform/message/: every send
route goes through coalesce.py to service.accept): the same sends, made one after the other, as one
batch, and all at once, answer as the rules say and as each other.

The rules (docs/messages.md, "Accepting a send"; the contract's idempotency rules):
- a key replays the first answer: e-mail without comparing bodies, SMS (push, WhatsApp) comparing
  them, a different body with the same key being a conflict (409 IdempotencyConflict);
- a refused send (a blocked recipient, an invalid body, the monthly quota) claims no key: the next
  send with that key is a first send;
- a batch item's key is ``<Idempotency-Key>:<index>``, the key a single send of it would carry;
  within one batch a key names one item (a later repeat is that item's own ValidationError);
- one item's refusal never fails the others;
- sends of one key at once create once, whatever their order: the others replay (or conflict).

Hypothesis draws a few bodies (recipients, a blocked one or not, an invalid one or not, a text)
and a sequence of sends of them with keys; the oracle below is the rules applied in order.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass

import pytest

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from models.platform.api_key import KeyKind
from models.platform.blocklist import BlockEntry
from models.platform.message import Message
from models.platform.scopes import DEMO_SCOPES
from models.platform.tenant import Tenant
from tests.fixtures.platform import email

BLOCKED = f"blocked-{secrets.token_hex(4)}.example"
BLOCKED_PHONE = f"+1416{secrets.randbelow(10 ** 7):07d}"


@dataclass(frozen=True)
class Body:
    recipients: int  # 1 or 2
    blocked: bool  # the last recipient is on the platform blocklist
    invalid: bool  # the last recipient is not an address at all (refused before accept)
    text: str


@dataclass(frozen=True)
class Send:
    body: int  # which of the example's bodies
    key: int | None  # which key, or none


bodies = st.builds(Body, st.integers(1, 2), st.booleans(), st.booleans(), st.sampled_from(["a", "b"]))
sends = st.lists(st.builds(Send, st.integers(0, 2), st.one_of(st.none(), st.integers(0, 1))), min_size=1, max_size=7)
# Always tried, whatever hypothesis draws: a key sent again with another body (and with the same),
# a blocked send whose key a later send takes, and a quota that a later, smaller send still fits.
BODIES = [Body(1, False, False, "a"), Body(2, False, False, "b"), Body(1, True, False, "a")]
KEYS_AND_BODIES = [Send(0, 0), Send(1, 0), Send(2, 1), Send(1, 1), Send(0, None), Send(0, 0), Send(1, 1)]
QUOTA_SKIPS = [Send(1, None), Send(1, 0), Send(0, None), Send(1, 0), Send(0, 1), Send(0, None)]
SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def email_body(body: Body) -> dict:
    to = [f"r{index}@example.com" for index in range(body.recipients)]
    if body.blocked:
        to[-1] = f"x@{BLOCKED}"
    if body.invalid:
        to[-1] = "not an address"
    return email(to=to, text=body.text)


def sms_body(body: Body) -> dict:
    to = [f"+1415555{index:04d}" for index in range(body.recipients)]
    if body.blocked:
        to[-1] = BLOCKED_PHONE
    if body.invalid:
        to[-1] = "12345"
    return {"To": to, "Body": body.text}


# --- the oracle: the rules, applied in order ---------------------------------------------------

def expected(bodies_: list[Body], sends_: list[Send], *, compare_bodies: bool, quota: int | None = None,
             one_request: bool = False) -> list[tuple]:
    """What each send answers when they are made in order (``one_request``: as the items of one
    batch): ("new", n), ("replay", creator's index), ("conflict",), ("blocked",), ("invalid",),
    ("over",) or ("repeat",)."""
    records: dict[int, tuple[int, Body]] = {}
    seen: set[int] = set()  # the keys of this request's items that reached their claim
    left = quota
    out: list[tuple] = []
    for index, send in enumerate(sends_):
        body = bodies_[send.body]
        if body.invalid:
            out.append(("invalid",))
            continue
        if body.blocked:
            out.append(("blocked",))
            continue
        if send.key is not None:
            if one_request and send.key in seen:
                out.append(("repeat",))
                continue
            seen.add(send.key)
            if send.key in records:
                creator, first = records[send.key]
                out.append(("conflict",) if compare_bodies and first != body else ("replay", creator))
                continue
        if left is not None and body.recipients > left:
            out.append(("over",))  # and its key stays free
            continue
        if left is not None:
            left -= body.recipients
        if send.key is not None:
            records[send.key] = (index, body)
        out.append(("new", body.recipients))
    return out


def outcome(status: int, answer: dict) -> tuple:
    """A send's answer (or a batch item's) as the oracle writes it, with its ids last."""
    error = answer.get("Error")
    if error is None:
        assert status == 202, answer
        return ("replay" if answer["ReusedIdempotency"] else "new", tuple(answer["MessageIds"]))
    code = error["Code"]
    if code == "SuppressedAddress":
        return ("blocked",)
    if code == "IdempotencyConflict":
        assert status in (409, 202), (status, answer)
        return ("conflict",)
    if code == "QuotaExceeded":
        return ("over",)
    if code == "ValidationError" and "IdempotencyKey" in (error.get("Details") or {}):
        return ("repeat",)
    assert code == "ValidationError" and status in (400, 422, 202), (status, answer)
    return ("invalid",)


def check(expect: list[tuple], got: list[tuple]) -> None:
    """Kinds as the oracle says; a new send's ids its own, one per recipient; a replay the ids of
    the send that created them."""
    assert [each[0] for each in got] == [each[0] for each in expect], (expect, got)
    seen: set[str] = set()
    for wanted, answer in zip(expect, got):
        if wanted[0] == "new":
            assert len(answer[1]) == wanted[1] and seen.isdisjoint(answer[1]), (expect, got)
            seen.update(answer[1])
        if wanted[0] == "replay":
            assert answer[1] == got[wanted[1]][1], (expect, got)


async def send_one(platform, account, path: str, raw: dict, key: str | None) -> tuple:
    headers = {**account.headers, **({"Idempotency-Key": key} if key is not None else {})}
    response = await platform.post(path, json=raw, headers=headers)
    return outcome(response.status_code, response.json())


async def stored(account) -> int:
    tenant = await Tenant.get(public_id=account.tenant_id)
    return await Message.filter(tenant_id=tenant.id).count()


def written(expect: list[tuple]) -> int:
    return sum(each[1] for each in expect if each[0] == "new")


@pytest.fixture
async def blocklist():
    """A domain and a phone number on the platform blocklist for the test."""
    entries = [await BlockEntry.create(kind="domain", value=BLOCKED, reason="test", created_by="test"),
               await BlockEntry.create(kind="phone", value=BLOCKED_PHONE, reason="test", created_by="test")]
    yield
    for entry in entries:
        await entry.delete()


@SETTINGS
@given(bodies_=st.lists(bodies, min_size=3, max_size=3), sends_=sends, quota=st.one_of(st.none(), st.integers(0, 4)))
@example(bodies_=BODIES, sends_=KEYS_AND_BODIES, quota=None)
@example(bodies_=BODIES, sends_=QUOTA_SKIPS, quota=3)
async def test_email_sends_alone_in_a_batch_and_at_once_keep_the_rules(
        platform, make_account, blocklist, bodies_: list[Body], sends_: list[Send], quota: int | None) -> None:
    raws = [email_body(body) for body in bodies_]
    keys = [f"k{secrets.token_hex(4)}-{n}" for n in range(2)]

    def key_of(send: Send) -> str | None:
        return keys[send.key] if send.key is not None else None

    # One after the other: the oracle, quota included.
    alone = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST, quota=quota)
    expect = expected(bodies_, sends_, compare_bodies=False, quota=quota)
    got = [await send_one(platform, alone, "/v1/emails/send", raws[send.body], key_of(send)) for send in sends_]
    check(expect, got)
    assert await stored(alone) == written(expect)

    # The same sends as one batch, with the items' own keys: as in order, but a key repeated
    # within the request is that item's error.
    batched = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST, quota=quota)
    items = [{**raws[send.body], **({"IdempotencyKey": key_of(send)} if send.key is not None else {})}
             for send in sends_]
    answer = await platform.post("/v1/emails/batch", json={"Messages": items}, headers=batched.headers)
    assert answer.status_code == 202, answer.text
    results = answer.json()["Results"]
    assert [result["Index"] for result in results] == list(range(len(sends_)))
    expect_batch = expected(bodies_, sends_, compare_bodies=False, quota=quota, one_request=True)
    check(expect_batch, [outcome(202, result) for result in results])
    assert await stored(batched) == written(expect_batch)

    # A batch under an Idempotency-Key: item i carries "<key>:i". A single send with that key
    # replays the item (or is refused as the item was); the batch again replays every item.
    header = f"h{secrets.token_hex(4)}"
    plain = [raws[send.body] for send in sends_]
    first = await platform.post("/v1/emails/batch", json={"Messages": plain},
                                headers={**batched.headers, "Idempotency-Key": header})
    first_items = [outcome(202, result) for result in first.json()["Results"]]
    check(expected(bodies_, [Send(send.body, None) for send in sends_], compare_bodies=False,
                   quota=None if quota is None else max(0, quota - written(expect_batch)), one_request=True),
          first_items)
    for index, item in enumerate(first_items):
        alone_item = await send_one(platform, batched, "/v1/emails/send", plain[index], f"{header}:{index}")
        if item[0] == "new":
            assert alone_item == ("replay", item[1]), (item, alone_item)
        elif item[0] in ("blocked", "invalid"):
            assert alone_item == item
    again = await platform.post("/v1/emails/batch", json={"Messages": plain},
                                headers={**batched.headers, "Idempotency-Key": header})
    for item, replayed in zip(first_items, (outcome(202, result) for result in again.json()["Results"])):
        assert replayed == (("replay", item[1]) if item[0] == "new" else item), (item, replayed)

    # All at once (no quota: concurrent reads of the month's usage may each see room).
    together = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST)
    got = await asyncio.gather(*(send_one(platform, together, "/v1/emails/send", raws[send.body], key_of(send))
                                 for send in sends_))
    concurrent(bodies_, sends_, got, compare_bodies=False)
    assert await stored(together) == created(got)



@SETTINGS
@given(bodies_=st.lists(bodies, min_size=3, max_size=3), sends_=sends, quota=st.one_of(st.none(), st.integers(0, 4)))
@example(bodies_=BODIES, sends_=KEYS_AND_BODIES, quota=None)
@example(bodies_=BODIES, sends_=QUOTA_SKIPS, quota=3)
async def test_sms_sends_alone_and_at_once_keep_the_rules_and_compare_bodies(
        platform, make_account, blocklist, bodies_: list[Body], sends_: list[Send], quota: int | None) -> None:
    raws = [sms_body(body) for body in bodies_]
    keys = [f"k{secrets.token_hex(4)}-{n}" for n in range(2)]

    def key_of(send: Send) -> str | None:
        return keys[send.key] if send.key is not None else None

    alone = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST, quota=quota)
    expect = expected(bodies_, sends_, compare_bodies=True, quota=quota)
    got = [await send_one(platform, alone, "/v1/sms/send", raws[send.body], key_of(send)) for send in sends_]
    check(expect, got)
    assert await stored(alone) == written(expect)

    together = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST)
    got = await asyncio.gather(*(send_one(platform, together, "/v1/sms/send", raws[send.body], key_of(send))
                                 for send in sends_))
    concurrent(bodies_, sends_, got, compare_bodies=True)
    assert await stored(together) == created(got)



def created(got: list[tuple]) -> int:
    """The messages sends made at once wrote: those of the sends that created (which send of a key
    creates is a race, and its body's recipients decide the count; :func:`concurrent` checks the rest)."""
    return sum(len(answer[1]) for answer in got if answer[0] == "new")


def concurrent(bodies_: list[Body], sends_: list[Send], got: list[tuple], *, compare_bodies: bool) -> None:
    """Sends made at once: refusals as in order; per key one creates, whichever it was, and every
    other send of the key replays its ids, or (comparing bodies) conflicts exactly when its body
    is not the creator's; a send without a key creates."""
    creators: dict[int, int] = {}
    for index, (send, answer) in enumerate(zip(sends_, got)):
        body = bodies_[send.body]
        if body.invalid or body.blocked:
            assert answer == (("invalid",) if body.invalid else ("blocked",)), (sends_, got)
            continue
        if send.key is None:
            assert answer[0] == "new" and len(answer[1]) == body.recipients, (sends_, got)
        elif answer[0] == "new":
            assert send.key not in creators, (sends_, got)
            creators[send.key] = index
    for index, (send, answer) in enumerate(zip(sends_, got)):
        body = bodies_[send.body]
        if body.invalid or body.blocked or send.key is None or creators.get(send.key) == index:
            continue
        creator = creators[send.key]  # a valid send of the key: one of them created
        if compare_bodies and bodies_[sends_[creator].body] != body:
            assert answer == ("conflict",), (sends_, got)
        else:
            assert answer == ("replay", got[creator][1]), (sends_, got)
