"""Consent: opt-out rows per contact and channel (a contact receives unless opted out)."""
