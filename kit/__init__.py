"""The base: settings, actors, sealing, egress, errors, observability and the small helpers every layer uses.

It stands at the bottom of the house and imports no other package of ours (setup.cfg, the layers contract)."""
