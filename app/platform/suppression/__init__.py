"""Suppressions written by other systems (the CRM's opt-outs)."""
