"""Users: registration, reading and changing one, e-mail verification."""
