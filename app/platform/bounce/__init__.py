"""What comes back for an e-mail: the returns intake (DSNs, ARF reports) behind POST /internal/v1/returns."""
