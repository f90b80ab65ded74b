"""OIDC / OAuth 2.1: authorization codes, tokens, the login pages of /authorize."""
