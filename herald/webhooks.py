"""Verifying Herald's webhooks on the receiving side: the documented import (docs/webhooks.md).

The code is :mod:`kit.webhooks`, the base module the senders sign with; this name stays for users.
"""

from kit.webhooks import (EVENT_HEADER, SIGNATURE_HEADER, TOLERANCE_SECONDS, WebhookVerificationError, parse_header,
                          sign, signature, verify)

__all__ = ["EVENT_HEADER", "SIGNATURE_HEADER", "TOLERANCE_SECONDS", "WebhookVerificationError", "parse_header", "sign",
           "signature", "verify"]
