"""OAuth clients, registered with the service credential."""
