"""Contacts: natural identity, sealed PII, attributes, upsert one by one or in bulk, CSV export."""
