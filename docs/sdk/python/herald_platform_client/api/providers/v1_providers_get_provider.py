from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.v1_providers_get_provider_response_200 import V1ProvidersGetProviderResponse200
from typing import cast



def _get_kwargs(
    channel: str,
    key: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/providers/{channel}/{key}".format(channel=quote(str(channel), safe=""),key=quote(str(key), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1ProvidersGetProviderResponse200:
    if response.status_code == 200:
        response_200 = V1ProvidersGetProviderResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = PascalError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1ProvidersGetProviderResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    channel: str,
    key: str,
    *,
    client: AuthenticatedClient,

) -> Response[PascalError | V1ProvidersGetProviderResponse200]:
    """ One provider setting of the account, by channel and key (secrets never shown)

     One provider setting of the account, by channel and key (secrets never shown).

    Args:
        channel (str):
        key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1ProvidersGetProviderResponse200]
     """


    kwargs = _get_kwargs(
        channel=channel,
key=key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    channel: str,
    key: str,
    *,
    client: AuthenticatedClient,

) -> PascalError | V1ProvidersGetProviderResponse200 | None:
    """ One provider setting of the account, by channel and key (secrets never shown)

     One provider setting of the account, by channel and key (secrets never shown).

    Args:
        channel (str):
        key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1ProvidersGetProviderResponse200
     """


    return sync_detailed(
        channel=channel,
key=key,
client=client,

    ).parsed

async def asyncio_detailed(
    channel: str,
    key: str,
    *,
    client: AuthenticatedClient,

) -> Response[PascalError | V1ProvidersGetProviderResponse200]:
    """ One provider setting of the account, by channel and key (secrets never shown)

     One provider setting of the account, by channel and key (secrets never shown).

    Args:
        channel (str):
        key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1ProvidersGetProviderResponse200]
     """


    kwargs = _get_kwargs(
        channel=channel,
key=key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    channel: str,
    key: str,
    *,
    client: AuthenticatedClient,

) -> PascalError | V1ProvidersGetProviderResponse200 | None:
    """ One provider setting of the account, by channel and key (secrets never shown)

     One provider setting of the account, by channel and key (secrets never shown).

    Args:
        channel (str):
        key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1ProvidersGetProviderResponse200
     """


    return (await asyncio_detailed(
        channel=channel,
key=key,
client=client,

    )).parsed
