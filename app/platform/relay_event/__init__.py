"""Relay events: what Amazon SES, Postmark, Mailgun (and the other relays) report about an e-mail after
they accepted it, verified the way each signs it and applied through models/platform/returns.py."""
