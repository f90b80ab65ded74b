"""E-mail verification links sent again on request (the first is sent at sign-up or an e-mail change)."""
