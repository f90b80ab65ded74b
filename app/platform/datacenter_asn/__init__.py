"""Autonomous systems classed as datacenter networks (docs/operator.md)."""
