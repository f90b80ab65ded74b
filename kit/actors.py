"""The registry of actors: every job name an outbox row may carry, the queue it runs on, and whose
outbox (which system's database) writes it.

Importing this module has no side effects (no broker, no settings), so HTTP handlers, models,
schedules, relays and the actors themselves all spell a job the same way: ``Actor.EMAIL_DELIVER``,
never a string literal. ``tests/herald/test_actors.py`` proves every entry is a declared Dramatiq
actor on the queue named here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Queue(StrEnum):
    """One queue per concern, so each can be scaled or paused alone."""

    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"
    WHATSAPP = "whatsapp"
    WEBHOOKS = "webhooks"
    DNS = "dns"
    MAINTENANCE = "maintenance"
    IDENTITY_MAIL = "identity_mail"
    CRM = "crm"
    RUNTIME = "runtime"


# Dramatiq's Redis key prefix for every queue (its RedisBroker default): the workers' broker
# (tasks/broker.py), the relays (schedules/__main__.py) and the queue-lag reads (schedules/queue_lag.py).
BROKER_NAMESPACE = "dramatiq"

# Idle workers wait on this Redis channel (tasks/wake.py); a relay publishes a queue's name there
# after enqueueing to it, so a new job is fetched at once rather than at the workers' next poll.
WORKER_WAKE_CHANNEL = "herald:workers:wake"


@dataclass(frozen=True)
class ActorRef:
    name: str  # "<noun>.<verb>", as declared with @dramatiq.actor(actor_name=...)
    queue: Queue
    system: str  # the system whose outbox rows carry it (its relay publishes them)


class Actor:
    EMAIL_DELIVER = ActorRef("email.deliver", Queue.EMAIL, "platform")
    SMS_DELIVER = ActorRef("sms.deliver", Queue.SMS, "platform")
    PUSH_DELIVER = ActorRef("push.deliver", Queue.PUSH, "platform")
    WHATSAPP_DELIVER = ActorRef("whatsapp.deliver", Queue.WHATSAPP, "platform")
    WEBHOOK_DELIVER = ActorRef("webhooks.deliver", Queue.WEBHOOKS, "platform")
    DOMAIN_VERIFY = ActorRef("domains.verify", Queue.DNS, "platform")
    IDENTITY_MAIL_SEND = ActorRef("identity_mail.send", Queue.IDENTITY_MAIL, "identity")
    CRM_RETENTION_ANONYMIZE = ActorRef("crm_retention.anonymize", Queue.CRM, "crm")
    CRM_ERASURE_RUN = ActorRef("crm_erasure.run", Queue.CRM, "crm")
    CRM_DELIVERY_SEND = ActorRef("crm_deliveries.send", Queue.CRM, "crm")
    CRM_ALERT_EVALUATE = ActorRef("crm_alerts.evaluate", Queue.CRM, "crm")
    CRM_JOURNEY_ADVANCE = ActorRef("crm_journeys.advance", Queue.CRM, "crm")
    CRM_SUPPRESSION_SYNC = ActorRef("crm_journeys.sync_suppression", Queue.CRM, "crm")
    CRM_CONTACT_IMPORT_RUN = ActorRef("crm_contact_imports.run", Queue.CRM, "crm")
    PAGES_DOMAIN_VERIFY = ActorRef("pages_domains.verify", Queue.DNS, "pages")
    PAGES_EXPERIMENT_EVALUATE = ActorRef("pages_experiments.evaluate", Queue.MAINTENANCE, "pages")
    PLATFORM_ALERT_NOTIFY = ActorRef("platform_alerts.notify", Queue.MAINTENANCE, "platform")
    RUNTIME_LEAD_FORWARD = ActorRef("runtime_leads.forward", Queue.RUNTIME, "runtime")
    RUNTIME_FORM_NOTIFY = ActorRef("runtime_form_notices.send", Queue.RUNTIME, "runtime")
    MAIL_RECEIVED_ANNOUNCE = ActorRef("mail_received.announce", Queue.WEBHOOKS, "mail")
    WHATSAPP_TEMPLATE_SUBMIT = ActorRef("whatsapp_templates.submit", Queue.WHATSAPP, "platform")
    WHATSAPP_TEMPLATE_CHECK = ActorRef("whatsapp_templates.check", Queue.WHATSAPP, "platform")
    SNS_SUBSCRIPTION_CONFIRM = ActorRef("sns_subscriptions.confirm", Queue.WEBHOOKS, "platform")

    @classmethod
    def all(cls) -> list[ActorRef]:
        return [value for value in vars(cls).values() if isinstance(value, ActorRef)]

    @classmethod
    def deliver(cls, channel: str) -> ActorRef:
        """The delivery actor of a message channel (``email``, ``sms``, ``push``, ``whatsapp``)."""
        return _DELIVER[channel]


_DELIVER = {ref.queue.value: ref for ref in (Actor.EMAIL_DELIVER, Actor.SMS_DELIVER, Actor.PUSH_DELIVER,
                                              Actor.WHATSAPP_DELIVER)}


def systems_with_outbox() -> list[str]:
    """The systems whose database has an outbox table and so a relay in the scheduler."""
    return sorted({ref.system for ref in Actor.all()})
