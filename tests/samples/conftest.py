import httpx
import pytest


@pytest.fixture
def client():
    """An HTTP client with keep-alive (one connection reused across requests) and a timeout."""
    with httpx.Client(timeout=10) as http:
        yield http
