from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.template_change import TemplateChange
from ...models.v1_templates_update_template_response_200 import V1TemplatesUpdateTemplateResponse200
from typing import cast



def _get_kwargs(
    template_id: str,
    *,
    body: TemplateChange,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/templates/{template_id}".format(template_id=quote(str(template_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1TemplatesUpdateTemplateResponse200:
    if response.status_code == 200:
        response_200 = V1TemplatesUpdateTemplateResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = PascalError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = PascalError.from_dict(response.json())



        return response_404

    if response.status_code == 413:
        response_413 = PascalError.from_dict(response.json())



        return response_413

    if response.status_code == 422:
        response_422 = PascalError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1TemplatesUpdateTemplateResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    template_id: str,
    *,
    client: AuthenticatedClient,
    body: TemplateChange,

) -> Response[PascalError | V1TemplatesUpdateTemplateResponse200]:
    """ Change a template's name, subject or bodies (its slug and channel stay)

     Change a template's name, subject or bodies (its slug and channel stay).

    Args:
        template_id (str):
        body (TemplateChange): PATCH /v1/templates/{id}: the fields given replace the template's
            (null removes an optional
            part); slug and channel stay (another slug or channel is another template).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1TemplatesUpdateTemplateResponse200]
     """


    kwargs = _get_kwargs(
        template_id=template_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    template_id: str,
    *,
    client: AuthenticatedClient,
    body: TemplateChange,

) -> PascalError | V1TemplatesUpdateTemplateResponse200 | None:
    """ Change a template's name, subject or bodies (its slug and channel stay)

     Change a template's name, subject or bodies (its slug and channel stay).

    Args:
        template_id (str):
        body (TemplateChange): PATCH /v1/templates/{id}: the fields given replace the template's
            (null removes an optional
            part); slug and channel stay (another slug or channel is another template).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1TemplatesUpdateTemplateResponse200
     """


    return sync_detailed(
        template_id=template_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    template_id: str,
    *,
    client: AuthenticatedClient,
    body: TemplateChange,

) -> Response[PascalError | V1TemplatesUpdateTemplateResponse200]:
    """ Change a template's name, subject or bodies (its slug and channel stay)

     Change a template's name, subject or bodies (its slug and channel stay).

    Args:
        template_id (str):
        body (TemplateChange): PATCH /v1/templates/{id}: the fields given replace the template's
            (null removes an optional
            part); slug and channel stay (another slug or channel is another template).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1TemplatesUpdateTemplateResponse200]
     """


    kwargs = _get_kwargs(
        template_id=template_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    template_id: str,
    *,
    client: AuthenticatedClient,
    body: TemplateChange,

) -> PascalError | V1TemplatesUpdateTemplateResponse200 | None:
    """ Change a template's name, subject or bodies (its slug and channel stay)

     Change a template's name, subject or bodies (its slug and channel stay).

    Args:
        template_id (str):
        body (TemplateChange): PATCH /v1/templates/{id}: the fields given replace the template's
            (null removes an optional
            part); slug and channel stay (another slug or channel is another template).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1TemplatesUpdateTemplateResponse200
     """


    return (await asyncio_detailed(
        template_id=template_id,
client=client,
body=body,

    )).parsed
