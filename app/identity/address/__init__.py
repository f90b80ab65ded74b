"""A person's e-mail addresses: the primary one and recovery addresses, verified or not."""
