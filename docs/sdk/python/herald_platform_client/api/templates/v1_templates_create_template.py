from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.template_create import TemplateCreate
from ...models.v1_templates_create_template_response_201 import V1TemplatesCreateTemplateResponse201
from typing import cast



def _get_kwargs(
    *,
    body: TemplateCreate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/templates",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1TemplatesCreateTemplateResponse201:
    if response.status_code == 201:
        response_201 = V1TemplatesCreateTemplateResponse201.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = PascalError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = PascalError.from_dict(response.json())



        return response_409

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



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1TemplatesCreateTemplateResponse201]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TemplateCreate,

) -> Response[PascalError | V1TemplatesCreateTemplateResponse201]:
    """ Create a template (409 when the account already has one of that slug)

     Create a template (409 when the account already has one of that slug).

    Args:
        body (TemplateCreate): POST /v1/templates: the dashboard's fields; a slug the account
            already has is 409.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1TemplatesCreateTemplateResponse201]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: TemplateCreate,

) -> PascalError | V1TemplatesCreateTemplateResponse201 | None:
    """ Create a template (409 when the account already has one of that slug)

     Create a template (409 when the account already has one of that slug).

    Args:
        body (TemplateCreate): POST /v1/templates: the dashboard's fields; a slug the account
            already has is 409.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1TemplatesCreateTemplateResponse201
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TemplateCreate,

) -> Response[PascalError | V1TemplatesCreateTemplateResponse201]:
    """ Create a template (409 when the account already has one of that slug)

     Create a template (409 when the account already has one of that slug).

    Args:
        body (TemplateCreate): POST /v1/templates: the dashboard's fields; a slug the account
            already has is 409.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1TemplatesCreateTemplateResponse201]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TemplateCreate,

) -> PascalError | V1TemplatesCreateTemplateResponse201 | None:
    """ Create a template (409 when the account already has one of that slug)

     Create a template (409 when the account already has one of that slug).

    Args:
        body (TemplateCreate): POST /v1/templates: the dashboard's fields; a slug the account
            already has is 409.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1TemplatesCreateTemplateResponse201
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
