from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.provider_set import ProviderSet
from ...models.v1_providers_set_provider_response_200 import V1ProvidersSetProviderResponse200
from ...models.v1_providers_set_provider_response_201 import V1ProvidersSetProviderResponse201
from typing import cast



def _get_kwargs(
    channel: str,
    key: str,
    *,
    body: ProviderSet,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/providers/{channel}/{key}".format(channel=quote(str(channel), safe=""),key=quote(str(key), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201:
    if response.status_code == 200:
        response_200 = V1ProvidersSetProviderResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = V1ProvidersSetProviderResponse201.from_dict(response.json())



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

    if response.status_code == 503:
        response_503 = PascalError.from_dict(response.json())



        return response_503

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201]:
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
    body: ProviderSet,

) -> Response[PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201]:
    """ Set (201) or replace (200) one provider setting of the account

     Set (201) or replace (200) one provider setting of the account.

    Args:
        channel (str):
        key (str):
        body (ProviderSet): ``Settings`` replace the stored ones; each of ``Secrets`` replaces the
            stored secret of that name
            (``null`` removes it); a secret left out stays as it was.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201]
     """


    kwargs = _get_kwargs(
        channel=channel,
key=key,
body=body,

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
    body: ProviderSet,

) -> PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201 | None:
    """ Set (201) or replace (200) one provider setting of the account

     Set (201) or replace (200) one provider setting of the account.

    Args:
        channel (str):
        key (str):
        body (ProviderSet): ``Settings`` replace the stored ones; each of ``Secrets`` replaces the
            stored secret of that name
            (``null`` removes it); a secret left out stays as it was.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201
     """


    return sync_detailed(
        channel=channel,
key=key,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    channel: str,
    key: str,
    *,
    client: AuthenticatedClient,
    body: ProviderSet,

) -> Response[PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201]:
    """ Set (201) or replace (200) one provider setting of the account

     Set (201) or replace (200) one provider setting of the account.

    Args:
        channel (str):
        key (str):
        body (ProviderSet): ``Settings`` replace the stored ones; each of ``Secrets`` replaces the
            stored secret of that name
            (``null`` removes it); a secret left out stays as it was.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201]
     """


    kwargs = _get_kwargs(
        channel=channel,
key=key,
body=body,

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
    body: ProviderSet,

) -> PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201 | None:
    """ Set (201) or replace (200) one provider setting of the account

     Set (201) or replace (200) one provider setting of the account.

    Args:
        channel (str):
        key (str):
        body (ProviderSet): ``Settings`` replace the stored ones; each of ``Secrets`` replaces the
            stored secret of that name
            (``null`` removes it); a secret left out stays as it was.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1ProvidersSetProviderResponse200 | V1ProvidersSetProviderResponse201
     """


    return (await asyncio_detailed(
        channel=channel,
key=key,
client=client,
body=body,

    )).parsed
