"""Query-string allowlists: each route names the parameters it accepts (``ctx_query=(...)``).

Anything else answers 422 ValidationError naming the parameter. Routes that declare no
allowlist accept no parameters at all. A route whose protocol says unknown parameters are ignored
(OAuth's ``/authorize``: RFC 6749 section 3.1) declares ``ctx_query_unknown="ignore"``.
"""

from __future__ import annotations

from sanic import Request

from app.http import errors


def check_query(request: Request) -> None:
    route = request.route
    if not request.query_string or route is None:
        return  # no route: the answer is its 404 or 405, whatever the query says
    if getattr(route.ctx, "query_unknown", None) == "ignore":
        return
    allowed: tuple[str, ...] = tuple(getattr(route.ctx, "query", ()))
    unknown = [name for name in request.args if name not in allowed]
    if unknown:
        raise errors.QueryParameterNotAllowed(unknown, allowed)


def int_param(request: Request, name: str, *, default: int | None = None, low: int | None = None,
              high: int | None = None) -> int | None:
    """An integer query parameter within bounds, or 422 naming it."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise errors.Unprocessable(f"Query parameter {name!r} must be an integer.",
                                   details={name: "must be an integer"}) from None
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise errors.Unprocessable(f"Query parameter {name!r} must be {bounds}.",
                                   details={name: f"must be {bounds}"})
    return value
