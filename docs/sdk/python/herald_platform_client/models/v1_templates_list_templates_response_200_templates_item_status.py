from enum import StrEnum

class V1TemplatesListTemplatesResponse200TemplatesItemStatus(StrEnum):
    ACTIVE = "active"
    APPROVED = "approved"
    PENDING = "pending"
    REJECTED = "rejected"

    def __str__(self) -> str:
        return str(self.value)
