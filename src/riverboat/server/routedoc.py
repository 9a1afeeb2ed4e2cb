"""A REST route declared once, where it is defined: its methods, summary, auth, request body model, answer and
errors (issue #29 item 6). :class:`ApiRoute` is a Starlette ``Route`` carrying these; :mod:`.openapi` walks the app's
routes and writes the OpenAPI document from them, so a route cannot be served without being documented (a plain
``Route`` in the app fails the document's build and ``tests/server/test_server_openapi_routes.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from starlette.routing import Route

#: a JSON Schema fragment (raw JSON by nature)
Schema = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Param:
    """A path or query parameter. A path parameter not declared is documented from its convertor."""

    name: str
    schema: Schema = field(default_factory=lambda: {"type": "string"})
    where: str = "query"
    description: str = ""

    def openapi(self) -> Schema:
        out: Schema = {"name": self.name, "in": self.where, "required": self.where == "path", "schema": self.schema}
        if self.description:
            out["description"] = self.description
        return out


def path_param(name: str, kind: str = "integer", enum: list[str] | None = None) -> Param:
    """A path parameter of JSON type ``kind``, one of ``enum`` if given."""
    return Param(name, {"type": kind} if enum is None else {"type": kind, "enum": enum}, "path")


def query(name: str, schema: Schema, description: str = "") -> Param:
    return Param(name, schema, "query", description)


@dataclass(frozen=True, slots=True)
class Op:
    """One method of a route.

    ``out``: the answer's model (JSON), or a media type (``"text/plain"``) for a non-JSON answer, or None (``done``);
    ``body``: the request body's model (its 400, 413 and 422 are added); ``auth``: a bearer token is needed (401
    added); ``errors``: status code -> description (an empty description: the usual one for that code), each with
    the API's JSON error body unless ``error_media`` names another (the fake provider's HTML pages).
    """

    summary: str
    out: type[BaseModel] | str | None = None
    status: int = 200
    body: type[BaseModel] | None = None
    body_required: bool = True
    auth: bool = True
    errors: Mapping[int, str] = field(default_factory=dict)
    params: tuple[Param, ...] = ()
    out_description: str = ""
    error_media: str | None = None


class ApiRoute(Route):
    """A Starlette route with its documentation: one :class:`Op` per method (HEAD comes with GET, as Starlette's)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], ops: Mapping[str, Op]) -> None:
        super().__init__(path, endpoint, methods=list(ops))
        self.ops = dict(ops)

