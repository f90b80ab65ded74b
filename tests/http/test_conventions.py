"""The HTTP conventions every system shares, checked through real HTTP against running apps."""

import json
import re

import pytest

from tests.fixtures.harness import post_declaring

REQUEST_ID = re.compile(r"^req_[0-9a-f]{24}$")


async def test_every_answer_carries_a_request_id_in_header_and_body(platform):
    response = await platform.get("/healthz")
    assert response.status_code == 200
    assert REQUEST_ID.match(response.headers["X-Request-Id"])
    assert response.json()["RequestId"] == response.headers["X-Request-Id"]


async def test_request_ids_are_unique(platform):
    ids = {(await platform.get("/healthz")).headers["X-Request-Id"] for _ in range(20)}
    assert len(ids) == 20


async def test_unknown_route_is_404_in_the_envelope(platform):
    response = await platform.get("/v1/nothing-here")
    assert response.status_code == 404
    body = response.json()
    assert body["Error"]["Type"] == "Sender"
    assert body["Error"]["Code"] == "NotFound"
    assert body["RequestId"] == response.headers["X-Request-Id"]


async def test_404_names_the_system_a_path_belongs_to(platform):
    response = await platform.get("/v1/paginas")
    assert response.status_code == 404
    assert response.json()["Error"]["Details"] == {"System": "pages"}
    assert "pages system" in response.json()["Error"]["Message"]


async def test_wrong_method_is_405_with_allow_header(platform):
    response = await platform.delete("/healthz")
    assert response.status_code == 405
    assert response.headers["Allow"] == "GET, HEAD"
    assert response.json()["Error"]["Code"] == "MethodNotAllowed"


async def test_an_unknown_route_is_404_whatever_its_query(platform):
    response = await platform.get("/v1/nothing-here", params={"verbose": "1"})
    assert response.status_code == 404 and response.json()["Error"]["Code"] == "NotFound"


@pytest.mark.parametrize("path", ["/", "/healthz", "/readyz", "/version", "/metrics", "/_test/page?limit=3"])
async def test_head_is_answered_on_every_get_route_like_get_without_a_body(platform, path):
    got, head = await platform.get(path), await platform.head(path)
    assert head.status_code == got.status_code == 200, (path, head.status_code)
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["X-Request-Id"] != got.headers["X-Request-Id"]
    if path not in ("/metrics", "/readyz", "/_test/page?limit=3"):  # these change from one call to the next
        assert int(head.headers["content-length"]) == len(got.content)


async def test_a_route_without_get_does_not_gain_head(platform):
    response = await platform.head("/_test/echo")
    assert response.status_code == 405 and response.headers["Allow"] == "POST"


@pytest.mark.parametrize("body", [
    b"[" * 2000 + b"]" * 2000,  # the parser itself would recurse too deep
    b'{"Name": "a", "Tags": ' + b'{"a":[' * 480 + b"]}" * 480 + b"}",
    b'{"Name": "a", "Tags": ' + b'{"a":' * 32 + b'"v"' + b"}" * 32 + b"}",  # 33 levels: just past the limit
], ids=["arrays", "objects and arrays", "33 levels"])
async def test_deeply_nested_json_is_400_never_500(platform, body):
    response = await platform.post("/_test/echo", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text[:300]
    assert response.json()["Error"]["Code"] == "ValidationError"
    assert response.json()["Error"]["Details"] == {"body": "nested deeper than 32 levels"}
    assert (await platform.get("/healthz")).status_code == 200


async def test_brackets_inside_strings_are_text_not_nesting(platform):
    for name in ("[" * 1000, '\\"{' * 300, "\\\\" + "[" * 500):
        body = json.dumps({"Name": name, "Tags": {"k": "{" * 1000}})
        response = await platform.post("/_test/echo", content=body, headers={"content-type": "application/json"})
        assert response.status_code == 200, response.text[:300]
        assert response.json()["Name"] == json.loads(body)["Name"]


def test_nesting_depth_is_measured_without_parsing():
    from app.http.bodies import MAX_DEPTH, nested_deeper_than

    assert not nested_deeper_than(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
    assert nested_deeper_than(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    assert nested_deeper_than(b'{"a":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1))
    assert nested_deeper_than(b"[[]" * 40 + b"]" * 40)  # depth 41 reached step by step
    assert not nested_deeper_than(b"[" + b"[]," * 10_000 + b"[]]")  # wide, not deep
    assert not nested_deeper_than(b'["' + b"[" * 100 + b'"]')
    assert not nested_deeper_than(b'["\\\\", "\\"' + b"{" * 100 + b'"]')  # escaped backslash, escaped quote
    assert not nested_deeper_than(b'["\\u0022' + b"[" * 100 + b'"]')


async def test_unknown_query_parameter_is_422_naming_it(platform):
    response = await platform.get("/healthz", params={"verbose": "1"})
    assert response.status_code == 422
    error = response.json()["Error"]
    assert error["Code"] == "ValidationError"
    assert "'verbose'" in error["Message"]
    assert error["Details"] == {"verbose": "unknown query parameter"}


async def test_allowlisted_query_parameters_pass(platform):
    response = await platform.get("/_test/page", params={"limit": "5"})
    assert response.status_code == 200
    assert response.json()["Limit"] == 5


async def test_out_of_range_integer_parameter_is_422(platform):
    response = await platform.get("/_test/page", params={"limit": "0"})
    assert response.status_code == 422
    assert response.json()["Error"]["Details"] == {"limit": "must be between 1 and 100"}


async def test_invalid_json_is_400_invalid_json(platform):
    response = await platform.post("/_test/echo", content=b'{"Name": ', headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["Error"]["Code"] == "InvalidJson"


async def test_unknown_body_field_is_400_naming_it(platform):
    response = await platform.post("/_test/echo", json={"Name": "a", "Colour": "red"})
    assert response.status_code == 400
    error = response.json()["Error"]
    assert error["Code"] == "ValidationError"
    assert "'Colour'" in error["Message"]
    assert error["Details"]["Colour"] == "unknown field"


async def test_field_errors_map_field_to_reason(platform):
    response = await platform.post("/_test/echo", json={"Count": "three"})
    assert response.status_code == 400
    details = response.json()["Error"]["Details"]
    assert details["Name"] == "required"
    assert "Count" in details


@pytest.mark.parametrize("body", [b"", b"[1, 2]", b'"text"'])
async def test_body_must_be_a_json_object(platform, body):
    response = await platform.post("/_test/echo", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["Error"]["Code"] == "ValidationError"


async def test_valid_body_passes(platform):
    response = await platform.post("/_test/echo", json={"Name": "a", "Count": 2, "Tags": {"k": "v"}})
    assert response.status_code == 200
    assert response.json()["Count"] == 2


async def test_route_body_cap_is_413(platform):
    response = await platform.post("/_test/echo", json={"Name": "x" * 5000})
    assert response.status_code == 413
    assert response.json()["Error"]["Code"] == "PayloadTooLarge"


async def test_surface_cap_is_413_before_the_body_is_read(servers):
    status, body = await post_declaring(servers("platform").url, "/_test/echo", 3 * 1024 * 1024)
    assert status == 413
    assert body["Error"]["Code"] == "PayloadTooLarge"


async def test_unhandled_exception_is_500_without_internals(platform):
    response = await platform.get("/_test/crash")
    assert response.status_code == 500
    body = response.json()
    assert body["Error"] == {"Type": "Receiver", "Code": "InternalError",
                             "Message": "The server could not complete the request."}
    assert "hunter2" not in response.text and "Traceback" not in response.text


async def test_cursor_round_trip(platform):
    first = (await platform.get("/_test/page", params={"limit": "3"})).json()
    second = await platform.get("/_test/page", params={"cursor": first["NextCursor"]})
    assert second.status_code == 200
    assert second.json()["Offset"] == 3


async def test_tampered_cursor_is_400(platform):
    cursor = (await platform.get("/_test/page")).json()["NextCursor"]
    tampered = cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BB")
    response = await platform.get("/_test/page", params={"cursor": tampered})
    assert response.status_code == 400
    for junk in ["not-a-cursor", "", "%%%"]:
        response = await platform.get("/_test/page", params={"cursor": junk} if junk else {"cursor": "x"})
        assert response.status_code == 400


async def test_another_accounts_cursor_is_400(platform):
    cursor = (await platform.get("/_test/page", params={"account": "acc_a"})).json()["NextCursor"]
    response = await platform.get("/_test/page", params={"cursor": cursor, "account": "acc_b"})
    assert response.status_code == 400


def test_no_code_of_ours_parses_http_below_sanic():
    """Every request goes through Sanic's own parser (issue 36): nothing subclasses its protocol,
    receives raw bytes or swaps the protocol Sanic serves with."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    below_sanic = re.compile(r'HttpProtocol|def data_received\(|sanic\.server\.protocols|\["protocol"\]|'
                             r'protocol=(?!pickle\.)|\.recv_buffer')
    found = [f"{path.relative_to(root)}:{number}" for folder in ("app", "herald")
             for path in (root / folder).rglob("*.py")
             for number, line in enumerate(path.read_text().splitlines(), 1) if below_sanic.search(line)]
    assert found == []
