from enum import StrEnum

class PascalErrorErrorType(StrEnum):
    RECEIVER = "Receiver"
    SENDER = "Sender"

    def __str__(self) -> str:
        return str(self.value)
