from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_templates_get_template_response_200_template import V1TemplatesGetTemplateResponse200Template





T = TypeVar("T", bound="V1TemplatesGetTemplateResponse200")



@_attrs_define
class V1TemplatesGetTemplateResponse200:
    """ 
        Attributes:
            template (V1TemplatesGetTemplateResponse200Template): The template.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    template: V1TemplatesGetTemplateResponse200Template
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_templates_get_template_response_200_template import V1TemplatesGetTemplateResponse200Template # noqa: PLC0415
        template = self.template.to_dict()

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Template": template,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_templates_get_template_response_200_template import V1TemplatesGetTemplateResponse200Template # noqa: PLC0415
        d = dict(src_dict)
        template = V1TemplatesGetTemplateResponse200Template.from_dict(d.pop("Template"))




        request_id = d.pop("RequestId")

        v1_templates_get_template_response_200 = cls(
            template=template,
            request_id=request_id,
        )


        v1_templates_get_template_response_200.additional_properties = d
        return v1_templates_get_template_response_200

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
