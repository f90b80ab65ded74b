"""Tortoise models of the crm system (its own database and connection)."""

from models.crm.activity import ActivityKind, ActivityRecord
from models.crm.alert import CrmAlert, CrmAlertEvent
from models.crm.consent import CHANNELS, Channel, OptOut
from models.crm.contact import Contact
from models.crm.contact_import import ContactImport, ImportState
from models.crm.delivery import ConversionIntegration, CrmDelivery, CrmDestination
from models.crm.event import ContactEvent
from models.crm.journey import Enrollment, EnrollmentStep, Journey
from models.crm.list import ContactList, ListMember
from models.crm.outbox import OutboxEntry
from models.crm.retention import ContactErasure, RetentionPolicy
from models.crm.segment import Segment

__all__ = ["ActivityKind", "ActivityRecord", "CHANNELS", "Channel", "Contact", "ContactErasure", "ContactImport", "ContactEvent", "ContactList",
           "ConversionIntegration", "CrmAlert", "CrmAlertEvent", "CrmDelivery", "CrmDestination", "Enrollment",
           "EnrollmentStep", "ImportState", "Journey", "ListMember", "OptOut", "OutboxEntry", "RetentionPolicy", "Segment"]
