"""Queue names: one queue per concern, so each can be scaled or paused alone."""

from enum import StrEnum


class Queue(StrEnum):
    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"
    WHATSAPP = "whatsapp"
    WEBHOOKS = "webhooks"
    DNS = "dns"
    MAINTENANCE = "maintenance"
    IDENTITY_MAIL = "identity_mail"
