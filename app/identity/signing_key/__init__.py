"""RS256 signing keys: the active one, the retired ones, rotation."""
