"""Herald's SMTP server (``herald smtpd``): submission with API keys through the platform's one
accept path, and receiving for mailboxes (stored by the mail system) and returns (the platform's
intake). A server surface like the HTTP systems, with no database: it reaches the platform and the
mail system over HTTP with the service credential (app/smtp/upstream.py). docs/smtp.md is the
reference; app/smtp/server.py the listeners and their limits."""
