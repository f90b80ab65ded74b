"""The person's own account on the dashboard: ``/api/me`` (profile, recovery codes, e-mail
addresses, security trail, re-authentication) and ``/api/auth/me/emails``; all of it is the
identity server's data, reached on the person's behalf."""
