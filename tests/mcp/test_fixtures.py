"""Other projects' annotated OpenAPI documents (the shared fixtures) served as MCP tools: every
definition is a valid MCP ``Tool`` of the SDK, named within the protocol's rules (SEP-986) and
within the 64 characters some model providers allow. These documents are corpus (tests/corpus.py):
skipped without it, a failure in CI."""

from __future__ import annotations

import re

import pytest

from deskcheck.cli.context import ContextOptions
from deskcheck.cli.errors import UsageError
from deskcheck.cli.mcp.catalogue import contexts_from_flags, open_catalogue
from tests.conftest import OPENAPI_FIXTURES

TOOL_NAME = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


pytestmark = pytest.mark.corpus("openapi")


def fixture_documents():
    return sorted(OPENAPI_FIXTURES.glob("*.json"))


def test_every_annotated_fixture_serves_valid_mcp_tools():
    from deskcheck.cli.mcp import sdk

    types = sdk.load().types
    served = 0
    for document in fixture_documents():
        try:
            catalogue = open_catalogue(contexts_from_flags(ContextOptions(), None, [str(document)], None, None))
        except UsageError as exc:
            # Documents without tools, or not OpenAPI at all, are refused before serving.
            assert "gives no tools" in exc.message or "cannot be loaded as tools" in exc.message, exc.message
            continue
        served += 1
        for definition in catalogue.definitions():
            assert TOOL_NAME.match(definition["name"]), (document.name, definition["name"])
            types.Tool.model_validate(definition)
    assert served >= 3
