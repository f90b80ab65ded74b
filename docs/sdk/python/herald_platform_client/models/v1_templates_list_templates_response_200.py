from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_templates_list_templates_response_200_templates_item import V1TemplatesListTemplatesResponse200TemplatesItem





T = TypeVar("T", bound="V1TemplatesListTemplatesResponse200")



@_attrs_define
class V1TemplatesListTemplatesResponse200:
    """ 
        Attributes:
            templates (list[V1TemplatesListTemplatesResponse200TemplatesItem]): The account's templates.
            next_cursor (None | str): Give it as `cursor` for the next page; null on the last one.
            has_more (bool): Whether there is a next page.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    templates: list[V1TemplatesListTemplatesResponse200TemplatesItem]
    next_cursor: None | str
    has_more: bool
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_templates_list_templates_response_200_templates_item import V1TemplatesListTemplatesResponse200TemplatesItem # noqa: PLC0415
        templates = []
        for templates_item_data in self.templates:
            templates_item = templates_item_data.to_dict()
            templates.append(templates_item)



        next_cursor: None | str
        next_cursor = self.next_cursor

        has_more = self.has_more

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Templates": templates,
            "NextCursor": next_cursor,
            "HasMore": has_more,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_templates_list_templates_response_200_templates_item import V1TemplatesListTemplatesResponse200TemplatesItem # noqa: PLC0415
        d = dict(src_dict)
        templates = []
        _templates = d.pop("Templates")
        for templates_item_data in (_templates):
            templates_item = V1TemplatesListTemplatesResponse200TemplatesItem.from_dict(templates_item_data)



            templates.append(templates_item)


        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("NextCursor"))


        has_more = d.pop("HasMore")

        request_id = d.pop("RequestId")

        v1_templates_list_templates_response_200 = cls(
            templates=templates,
            next_cursor=next_cursor,
            has_more=has_more,
            request_id=request_id,
        )


        v1_templates_list_templates_response_200.additional_properties = d
        return v1_templates_list_templates_response_200

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
