from enum import StrEnum

class LowerErrorErrorType(StrEnum):
    RECEIVER = "Receiver"
    SENDER = "Sender"

    def __str__(self) -> str:
        return str(self.value)
