"""The second factor: TOTP, e-mailed codes, recovery codes, the login ticket."""
