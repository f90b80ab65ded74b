"""Sessions: opened at login, checked on every request, revoked at once; recent re-authentication."""
