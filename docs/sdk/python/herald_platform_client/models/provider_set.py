from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.provider_set_secrets import ProviderSetSecrets
  from ..models.provider_set_settings import ProviderSetSettings





T = TypeVar("T", bound="ProviderSet")



@_attrs_define
class ProviderSet:
    """ ``Settings`` replace the stored ones; each of ``Secrets`` replaces the stored secret of that name
    (``null`` removes it); a secret left out stays as it was.

        Attributes:
            settings (ProviderSetSettings | Unset): The provider's settings (at most 20), replacing the stored ones; `GET
                /v1/providers` lists each one's.
            secrets (ProviderSetSecrets | Unset): Its secrets (at most 10), never shown again: each replaces the stored one,
                `null` removes it.
     """

    settings: ProviderSetSettings | Unset = UNSET
    secrets: ProviderSetSecrets | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.provider_set_secrets import ProviderSetSecrets # noqa: PLC0415
        from ..models.provider_set_settings import ProviderSetSettings # noqa: PLC0415
        settings: dict[str, Any] | Unset = UNSET
        if not isinstance(self.settings, Unset):
            settings = self.settings.to_dict()

        secrets: dict[str, Any] | Unset = UNSET
        if not isinstance(self.secrets, Unset):
            secrets = self.secrets.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if settings is not UNSET:
            field_dict["Settings"] = settings
        if secrets is not UNSET:
            field_dict["Secrets"] = secrets

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.provider_set_secrets import ProviderSetSecrets # noqa: PLC0415
        from ..models.provider_set_settings import ProviderSetSettings # noqa: PLC0415
        d = dict(src_dict)
        _settings = d.pop("Settings", UNSET)
        settings: ProviderSetSettings | Unset
        if isinstance(_settings,  Unset):
            settings = UNSET
        else:
            settings = ProviderSetSettings.from_dict(_settings)




        _secrets = d.pop("Secrets", UNSET)
        secrets: ProviderSetSecrets | Unset
        if isinstance(_secrets,  Unset):
            secrets = UNSET
        else:
            secrets = ProviderSetSecrets.from_dict(_secrets)




        provider_set = cls(
            settings=settings,
            secrets=secrets,
        )

        return provider_set

