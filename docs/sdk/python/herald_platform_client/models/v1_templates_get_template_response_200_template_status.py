from enum import StrEnum

class V1TemplatesGetTemplateResponse200TemplateStatus(StrEnum):
    ACTIVE = "active"
    APPROVED = "approved"
    PENDING = "pending"
    REJECTED = "rejected"

    def __str__(self) -> str:
        return str(self.value)
