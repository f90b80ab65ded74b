from enum import StrEnum

class V1DevicesRegisterDeviceResponse200DevicePlatform(StrEnum):
    ANDROID = "android"
    IOS = "ios"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
