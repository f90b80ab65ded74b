"""Reading what comes back (app/platform/bounce/reports.py), the VERP return path (kit/verp.py) and
the classification of statuses (models/platform/returns.py), on real messages built with the
standard library's email package: no server needed."""

from __future__ import annotations

from email.message import EmailMessage

from app.platform.bounce.reports import ARF, DSN, UNKNOWN, parse
from kit import verp
from models.platform.returns import Kind, classify_status
from providers.errors import RecipientBounced, TransientProviderError
from providers.smtp import refusal_error


def report(report_type: str, part_type: str, fields: str, enclosed: tuple[str, str] | None = None) -> bytes:
    """A multipart/report as a reporting server writes it (by hand: the email package's generator
    wants message/* parts as objects)."""
    parts = [("text/plain", "Human-readable part.\n"), (part_type, fields)] + ([enclosed] if enclosed else [])
    text = ("From: MAILER-DAEMON@mx.example.net\nSubject: Returned mail\nMIME-Version: 1.0\n"
            f'Content-Type: multipart/report; report-type={report_type}; boundary="sep"\n\n')
    for content_type, body in parts:
        text += f"--sep\nContent-Type: {content_type}\n\n{body}\n"
    return (text + "--sep--\n").replace("\n", "\r\n").encode()


def test_a_dsn_gives_each_recipient_its_action_status_and_diagnostic():
    raw = report("delivery-status", "message/delivery-status", """Reporting-MTA: dns; mx.example.net

Final-Recipient: rfc822; First@Example.com
Action: failed
Status: 5.1.1 (user unknown)
Diagnostic-Code: smtp; 550 5.1.1 no such user\x07

Final-Recipient: rfc822;second@example.com
Action: delayed
Status: 4.4.1
""")
    found = parse(raw)
    assert found.kind == DSN and found.reporter == "dns; mx.example.net"
    first, second = found.recipients
    assert (first.final_recipient, first.action, first.status) == ("first@example.com", "failed", "5.1.1")
    assert first.diagnostic == "smtp; 550 5.1.1 no such user"  # control characters dropped
    assert (second.final_recipient, second.action, second.status) == ("second@example.com", "delayed", "4.4.1")
    assert [classify_status(entry.status, entry.action) for entry in found.recipients] == [Kind.HARD, Kind.SOFT]


def test_an_arf_report_names_its_recipients_and_the_reported_return_path():
    with_rcpt = parse(report("feedback-report", "message/feedback-report",
                             "Feedback-Type: abuse\nUser-Agent: FBL/2\nVersion: 1\nOriginal-Rcpt-To: <Ann@Example.com>\n",
                             ("message/rfc822", "Return-Path: <bounce-msg_ab-0011223344556677@b.example>\n"
                                                "To: someone@example.com\nSubject: s\n\nbody\n")))
    assert with_rcpt.kind == ARF and with_rcpt.feedback_type == "abuse" and with_rcpt.reporter == "FBL/2"
    assert with_rcpt.reported_recipients == ["ann@example.com"]
    assert with_rcpt.reported_return_path == "bounce-msg_ab-0011223344556677@b.example"
    # Redacted reports often leave out Original-Rcpt-To: the reported message's To and Cc stand in.
    headers_only = parse(report("feedback-report", "message/feedback-report", "Feedback-Type: abuse\nVersion: 1\n",
                                ("text/rfc822-headers", "To: Bo <Bo@example.com>, c@example.com\nCc: d@example.com\n")))
    assert headers_only.reported_recipients == ["bo@example.com", "c@example.com", "d@example.com"]


def test_anything_else_is_unknown_and_never_raises():
    plain = EmailMessage()
    plain["Subject"] = "Out of office"
    plain.set_content("I am away.")
    other_report = report("disposition-notification", "message/disposition-notification", "Disposition: displayed\n")
    empty_dsn = report("delivery-status", "message/delivery-status", "Reporting-MTA: dns; x\n")
    for raw in (plain.as_bytes(), other_report, empty_dsn, b"", b"\xff\xfe\x00garbage", b"Content-Type: multipart/report"):
        assert parse(raw).kind == UNKNOWN


def test_the_return_path_names_its_message_and_only_herald_can_make_one():
    message_id = "msg_0123456789abcdef01234567"
    address = verp.return_path(message_id, "Bounces.Example.com")
    local, domain = address.split("@")
    assert local.startswith(f"bounce-{message_id}-") and domain == "bounces.example.com"
    assert len(local.rsplit("-", 1)[1]) == verp.TAG_LENGTH
    assert verp.named(address) == (message_id, True)
    assert verp.named(f"<{address.upper()}>") == (message_id, True)  # case and angle brackets do not matter
    forged = address.replace(local.rsplit("-", 1)[1], "f" * verp.TAG_LENGTH)
    assert verp.named(forged) == (message_id, False)
    other = verp.return_path("msg_ffffffffffffffffffffffff", "bounces.example.com")
    swapped = other.replace("msg_ffffffffffffffffffffffff", message_id)  # another message's tag
    assert verp.named(swapped) == (message_id, False)
    assert verp.named("postmaster@bounces.example.com") == (None, False)


def test_statuses_and_smtp_refusals_are_classified_the_same_way():
    assert classify_status("5.2.2", "failed") is Kind.HARD
    assert classify_status("4.2.2", "failed") is Kind.SOFT
    assert classify_status("5.0.0", "delayed") is Kind.SOFT
    assert classify_status("2.0.0", "delivered") is Kind.DELIVERED
    assert classify_status("2.0.0", "relayed") is None and classify_status(None, "failed") is None
    assert refusal_error(550) is RecipientBounced and refusal_error(554) is RecipientBounced
    assert refusal_error(450) is TransientProviderError and refusal_error(421) is TransientProviderError
