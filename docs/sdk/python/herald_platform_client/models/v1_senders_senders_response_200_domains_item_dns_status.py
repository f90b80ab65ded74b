from enum import StrEnum

class V1SendersSendersResponse200DomainsItemDnsStatus(StrEnum):
    OK = "ok"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
