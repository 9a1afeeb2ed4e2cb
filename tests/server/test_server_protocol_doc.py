"""Issue #29 item 6: the WebSocket frames' schema in docs/protocol.md is generated from the protocol models; this
fails when a model changed and the document was not regenerated (``python -m riverboat.server.protocol_doc``)."""

from __future__ import annotations

from riverboat.server import protocol
from riverboat.server.protocol_doc import DOC, render


def test_issue_29_the_documented_frames_are_the_models() -> None:
    text = DOC.read_text()
    assert render(text) == text, "docs/protocol.md is stale: run python -m riverboat.server.protocol_doc"
    for kind in protocol.CLIENT_FRAME_TYPES:  # every client frame type has its generated row
        assert f"| `{kind}` |" in text, kind
    for model in protocol.server_frame_schemas():
        assert f"| {model} |" in text, model
