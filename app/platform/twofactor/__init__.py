"""The dashboard's management of the person's second factor (/api/auth/2fa*), on the identity server."""
