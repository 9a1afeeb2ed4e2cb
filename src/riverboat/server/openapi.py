"""The OpenAPI 3.1 document of the REST API, served at ``GET /openapi.json``, generated from the app's routes.

Every REST route is an :class:`~.routedoc.ApiRoute` declaring its methods, summary, auth, body and answer models where
it is defined; this module walks the app's route table and writes the paths from them, the schemas from the pydantic
models they name, and the WebSocket frame schemas of :mod:`.protocol` under ``x-websocket`` (issue #29 item 6: the
edges generated, not hand-kept). A plain HTTP ``Route`` (no declaration) is refused: the document cannot leave a route
out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel
from starlette.convertors import FloatConvertor, IntegerConvertor
from starlette.routing import BaseRoute, Route, WebSocketRoute

from riverboat import __version__

from . import protocol
from .routedoc import ApiRoute, Op, Schema

#: the usual description of an error status (an Op's errors may say more)
ERRORS = {
    400: "the body is not valid JSON",
    401: "not logged in, or the token is unknown, expired or logged out",
    403: "not allowed for this player",
    404: "not found",
    405: "the method is not allowed",
    409: "conflict with the current state",
    413: "the body is larger than 16 KiB",
    422: "the request is malformed or refused (the message says which field or rule)",
    423: "too many wrong passwords: the account is locked for a while",
    429: "too many attempts; see Retry-After",
    501: "not available in this room",
}


class UndeclaredRoute(TypeError):
    """An HTTP route of the app without its :class:`ApiRoute` declaration."""


def undeclared(routes: Iterable[BaseRoute]) -> list[str]:
    """The paths of the HTTP routes that declare nothing (the WebSocket is documented under ``x-websocket``)."""
    return [r.path for r in routes if isinstance(r, Route) and not isinstance(r, ApiRoute)]


class _Components:
    """The document's ``components.schemas``: every model named by a route, with the models it nests."""

    def __init__(self) -> None:
        self.schemas: dict[str, Schema] = {}

    def ref(self, model: type[BaseModel]) -> Schema:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in schema.pop("$defs", {}).items():
            self._put(name, sub)
        self._put(model.__name__, schema)
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    def _put(self, name: str, schema: Schema) -> None:
        if self.schemas.setdefault(name, schema) != schema:
            raise ValueError(f"two different models are named {name!r}: the OpenAPI document needs one")


def _json(schema: Schema) -> Schema:
    return {"application/json": {"schema": schema}}


def _error(code: int, text: str, media: Schema) -> Schema:
    return {"description": text or ERRORS.get(code, "error"), "content": media}


def operation(op: Op, path_params: Sequence[Schema], components: _Components,
              error_out: type[BaseModel]) -> Schema:
    """One method's OpenAPI operation object."""
    ok: Schema = {"description": op.out_description or ("OK" if op.out is not None else "done")}
    if isinstance(op.out, str):
        ok["content"] = {op.out: {"schema": {"type": "string"}}}
    elif op.out is not None:
        ok["content"] = _json(components.ref(op.out))
    out: Schema = {"summary": op.summary, "responses": {str(op.status): ok}}
    errors: dict[int, str] = {}
    if op.auth:
        out["security"] = [{"bearer": []}]
        errors[401] = ""
    if op.body is not None:
        out["requestBody"] = {"required": op.body_required, "content": _json(components.ref(op.body))}
        errors |= {400: "", 413: "", 422: ""}
    errors |= dict(op.errors)
    media = {op.error_media: {"schema": {"type": "string"}}} if op.error_media else _json(components.ref(error_out))
    for code in sorted(errors):
        out["responses"][str(code)] = _error(code, errors[code], media)
    declared = {p.name for p in op.params}
    params = [p for p in path_params if p["name"] not in declared] + [p.openapi() for p in op.params]
    if params:
        out["parameters"] = params
    return out


def _path_params(route: Route) -> list[Schema]:
    """The path parameters from the route's convertors (an Op may declare them more precisely)."""
    out = []
    for name, convertor in route.param_convertors.items():
        kind = "integer" if isinstance(convertor, IntegerConvertor) else \
            "number" if isinstance(convertor, FloatConvertor) else "string"
        out.append({"name": name, "in": "path", "required": True, "schema": {"type": kind}})
    return out


def build_paths(routes: Iterable[BaseRoute], components: _Components, error_out: type[BaseModel]) -> Schema:
    """The ``paths`` object: one entry per HTTP route of the app, in the route table's order."""
    missing = undeclared(routes)
    if missing:
        raise UndeclaredRoute(f"routes without an ApiRoute declaration: {', '.join(missing)}")
    paths: Schema = {}
    for route in routes:
        if not isinstance(route, ApiRoute):
            continue
        entry = paths.setdefault(route.path_format, {})
        for method, op in route.ops.items():
            if method.lower() in entry:
                raise ValueError(f"{method} {route.path_format} is declared twice")
            entry[method.lower()] = operation(op, _path_params(route), components, error_out)
    return paths


def build_openapi(routes: Sequence[BaseRoute]) -> Schema:
    """The whole document for an app whose route table is ``routes``."""
    from .schemas import ErrorOut

    components = _Components()
    paths = build_paths(routes, components, ErrorOut)
    ws = [r.path for r in routes if isinstance(r, WebSocketRoute)]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Riverboat",
            "version": __version__,
            "description": "REST API of the Riverboat poker room. Table play uses the WebSocket protocol at /ws "
            "(docs/protocol.md; frame schemas under x-websocket). Money is integer minor units.",
        },
        "paths": paths,
        "components": {
            "schemas": dict(sorted(components.schemas.items())),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "x-websocket": {
            "path": ws[0] if ws else "/ws",
            "protocol_version": protocol.PROTOCOL_VERSION,
            "client_frames": protocol.client_frame_schema(),
            "server_frames": protocol.server_frame_schemas(),
        },
    }
