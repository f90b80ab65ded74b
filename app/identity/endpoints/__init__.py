"""Blueprints of the identity server, one per area."""
