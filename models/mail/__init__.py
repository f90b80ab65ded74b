"""The mail system's models (its own database): organizations, the mail system's view of an account,
mailboxes, addresses on the account's verified sending domains, and the messages they received. The domains themselves are the
platform's (delivery reads their DKIM keys there); this database names them only inside addresses."""

from models.mail.mailbox import Mailbox
from models.mail.organization import Organization
from models.mail.outbox import OutboxEntry
from models.mail.received import ReceivedMessage

__all__ = ["Organization", "Mailbox", "ReceivedMessage", "OutboxEntry"]
