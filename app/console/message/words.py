"""What a person reads instead of a message's codes: statuses, timeline events and bounce
reasons in plain words (the SMTP enhanced status code's class and subject, RFC 3463)."""

from __future__ import annotations

import re

FINAL = frozenset({"sent", "delivered", "failed", "bounced", "complained"})
STATUSES = {
    "queued": "Queued", "sending": "Sending", "sent": "Sent", "delivered": "Delivered", "failed": "Failed",
    "bounced": "Bounced", "complained": "Marked as spam",
}
CHANNELS = {"email": "E-mail", "sms": "SMS", "push": "Push", "whatsapp": "WhatsApp"}
EVENTS = {
    "queued": "Accepted and queued", "sending": "Handed to the provider", "sent": "Sent: the provider took it",
    "delivered": "Delivered to the recipient", "failed": "Failed: Herald gave up", "bounced": "Bounced",
    "complained": "The recipient marked it as spam", "delayed": "Delayed: the receiving server asked to retry later",
    "opened": "Opened", "clicked": "A link was clicked", "retry": "Will be tried again",
}
KINDS = {
    "hard": "A permanent bounce: the address does not take mail. Herald stops sending to it.",
    "soft": "A temporary bounce: the receiving server may take mail later.",
    "complaint": "The recipient reported the message as spam. Herald stops sending to them.",
}
# RFC 3463 X.Y.Z: the most common subjects people meet, in words.
DETAILS = {
    "1.1": "the mailbox does not exist", "1.2": "the recipient's domain does not exist",
    "1.10": "the domain accepts no mail", "2.1": "the mailbox is disabled", "2.2": "the mailbox is full",
    "2.3": "the message is too large for the mailbox", "3.4": "the message is too large",
    "4.4": "no server for the domain answered", "4.7": "the message expired before it was delivered",
    "7.1": "the receiving server refused it by policy (often spam filtering or a block list)",
    "7.26": "the receiving server could not authenticate the sender (SPF, DKIM or DMARC)",
    "7.25": "the sending server's reverse DNS is missing",
}
CODE = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")


def status(value: str | None) -> str:
    return STATUSES.get(value or "", (value or "").capitalize())


def channel(value: str | None) -> str:
    return CHANNELS.get(value or "", value or "")


def event(value: str | None) -> str:
    return EVENTS.get(value or "", (value or "").replace("_", " ").capitalize())


def bounce(detail: object) -> str | None:
    """A bounce's reason in words, from the event's detail (``Kind``, ``Reason``, the server's answer)."""
    if not isinstance(detail, dict):
        return None
    said = [KINDS[detail["Kind"]]] if detail.get("Kind") in KINDS else []
    text = " ".join(str(part) for part in detail.values() if isinstance(part, (str, int)))
    found = CODE.search(text)
    if found:
        meaning = DETAILS.get(f"{found.group(2)}.{found.group(3)}")
        permanence = {"5": "Permanent", "4": "Temporary", "2": "Success"}[found.group(1)]
        if meaning:
            said.append(f"{permanence} ({found.group(0)}): {meaning}.")
    return " ".join(said) or None
