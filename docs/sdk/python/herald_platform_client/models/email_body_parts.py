from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.content import Content





T = TypeVar("T", bound="EmailBodyParts")



@_attrs_define
class EmailBodyParts:
    """ 
        Attributes:
            text (Content | None | Unset): The plain-text part.
            html (Content | None | Unset): The HTML part.
     """

    text: Content | None | Unset = UNSET
    html: Content | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.content import Content # noqa: PLC0415
        text: dict[str, Any] | None | Unset
        if isinstance(self.text, Unset):
            text = UNSET
        elif isinstance(self.text, Content):
            text = self.text.to_dict()
        else:
            text = self.text

        html: dict[str, Any] | None | Unset
        if isinstance(self.html, Unset):
            html = UNSET
        elif isinstance(self.html, Content):
            html = self.html.to_dict()
        else:
            html = self.html


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if text is not UNSET:
            field_dict["Text"] = text
        if html is not UNSET:
            field_dict["Html"] = html

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.content import Content # noqa: PLC0415
        d = dict(src_dict)
        def _parse_text(data: object) -> Content | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                text_type_0 = Content.from_dict(data)



                return text_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Content | None | Unset, data)

        text = _parse_text(d.pop("Text", UNSET))


        def _parse_html(data: object) -> Content | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                html_type_0 = Content.from_dict(data)



                return html_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Content | None | Unset, data)

        html = _parse_html(d.pop("Html", UNSET))


        email_body_parts = cls(
            text=text,
            html=html,
        )

        return email_body_parts

