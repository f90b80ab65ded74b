"""The benchmark's load generator speaks HTTP correctly (figures themselves are not asserted)."""

from bench.load import build_request, closed_loop, message_ids, open_loop


async def test_closed_loop_counts_answers_and_statuses(servers):
    server = servers("platform")
    request = build_request("GET", "/healthz", None, {}, "127.0.0.1")
    result = await closed_loop("127.0.0.1", server.port, request, concurrency=4, seconds=0.5, expected=200)
    summary = result.summary(200)
    assert summary["requests"] > 0 and summary["errors"] == 0
    assert summary["statuses"] == {"200": summary["requests"]}
    assert 0 < summary["p50_ms"] <= summary["p99_ms"]


async def test_open_loop_offers_the_asked_rate_and_keeps_bodies(servers):
    server = servers("platform")
    request = build_request("POST", "/_test/echo", b'{"Name": "x"}', {}, "127.0.0.1")
    result = await open_loop("127.0.0.1", server.port, request, rate=40, seconds=0.5, expected=200, connections=4)
    assert result.requests == 20 and result.errors == 0
    assert all(b'"Name":"x"' in body for _, body in result.bodies)
    assert message_ids(result) == []  # no MessageId in these answers
