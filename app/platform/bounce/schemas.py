"""The body of ``POST /internal/v1/returns`` (Herald's SMTP server posts what reached a return path)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body, example

# The raw message: the SMTP server posts at most the first MiB of a larger one (a report's own
# parts come before the returned message, so nothing that matters is cut).
MAX_MESSAGE_BYTES = 1024 * 1024
MAX_BODY_BYTES = MAX_MESSAGE_BYTES * 4 // 3 + 4096


class ReturnIntake(Body):
    model_config = example({"Recipient": "bounce-msg_0123456789abcdef01234567-0a1b2c3d4e5f6a7b@bounces.herald.test",
                            "Message": "RnJvbTogTUFJTEVSLURBRU1PTkBteC5leGFtcGxlLmNvbQ0KU3ViamVjdDogVW5kZWxpdmVyZWQNCg0KTm90IGEgcmVwb3J0Lg0K"})
    recipient: str = Field(min_length=1, max_length=512)
    """The SMTP RCPT the report was sent to (a VERP return path)."""
    message: str = Field(min_length=1, max_length=MAX_BODY_BYTES)
    """The raw RFC 5322 report, base64 (at most 1 MiB decoded)."""
