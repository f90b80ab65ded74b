"""Mail received for the account's mailboxes: stored by Herald's SMTP server through the internal
route (``internal.py``), listed, read and deleted through the mail API (``v1.py``). ``content`` opens
a stored message; ``service`` holds the rules (recipient resolution, quota, de-duplication)."""
