from enum import StrEnum

class V1DevicesListDevicesResponse200DevicesItemPlatform(StrEnum):
    ANDROID = "android"
    IOS = "ios"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
