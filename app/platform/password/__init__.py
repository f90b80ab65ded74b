"""The dashboard's account recovery (/api/auth/password-reset*) and e-mail verification, on the identity server."""
