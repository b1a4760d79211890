"""The server under realistic abuse: concurrent writers, kept-alive connections after errors,
odd bodies, fuzzed parameters and bodies (hypothesis)."""

from __future__ import annotations

import json
import socket
import threading

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.samples.records_api.messages import MAX_BODY_BYTES
from tests.hypothesis_profiles import examples
from tests.samples.support import create_association, line_url, lines_url


def test_concurrent_writers_with_the_same_etag_exactly_one_wins(sample_api, client):
    url = create_association(sample_api, client, nom="Association disputée").headers["location"]
    read = client.get(url)
    record, etag = read.json(), read.headers["etag"]
    statuses: list[int] = []
    lock = threading.Lock()

    def write(number: int) -> None:
        # One shared client: its pool gives each thread a connection of its own.
        response = client.put(
            url,
            json={**record, "description": f"writer {number}"},
            headers={"If-Match": etag, **sample_api.auth_headers()},
        )
        with lock:
            statuses.append(response.status_code)

    writers = [threading.Thread(target=write, args=(n,)) for n in range(12)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert sorted(statuses) == [200] + [412] * 11


def test_many_parallel_creates_are_all_stored(sample_api, client):
    created: list[str] = []
    lock = threading.Lock()

    def create(number: int) -> None:
        response = create_association(sample_api, client, nom=f"Association parallèle {number}")
        with lock:
            created.append(response.json()["_id"])

    threads = [threading.Thread(target=create, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(created)) == 20
    found = client.get(lines_url(sample_api, "associations"), params={"q": "parallele", "size": 100}).json()
    assert {row["_id"] for row in found["results"]} >= set(created)


def test_a_connection_stays_usable_after_errors(sample_api):
    """Refused writes (whose bodies were sent) do not desynchronise a kept-alive connection."""
    with httpx.Client(timeout=10) as one_connection:
        url = line_url(sample_api, "associations", "asso-001")
        body = {"nom": "x" * 5000}
        assert one_connection.put(url, json=body).status_code == 401
        assert one_connection.put(url, json=body, headers=sample_api.auth_headers("read")).status_code == 403
        assert one_connection.put(f"{url}-missing", json=body, headers=sample_api.auth_headers()).status_code == 404
        assert one_connection.get(url).json()["_id"] == "asso-001"


def raw_exchange(api, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", api.port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def test_too_large_body_is_refused_and_the_connection_closed(sample_api):
    request = (
        f"PUT /api/v1/datasets/associations/lines/asso-001 HTTP/1.1\r\nHost: x\r\n"
        f"Content-Type: application/json\r\nContent-Length: {MAX_BODY_BYTES + 1}\r\n\r\n"
    ).encode()
    answer = raw_exchange(sample_api, request)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert b"Connection: close" in head
    assert json.loads(body)["status"] == 413


def test_chunked_body_is_decoded(sample_api):
    payload = json.dumps({"nom": "A"}).encode()
    request = (
        b"POST /api/v1/datasets/associations/lines HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        b"Authorization: Bearer " + sample_api.write_token.encode() + b"\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + f"{len(payload):x}\r\n".encode()
        + payload
        + b"\r\n0\r\n\r\n"
    )
    answer = raw_exchange(sample_api, request)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400")  # decoded, then found invalid: "nom" too short, fields missing
    assert "/nom" in [problem["path"] for problem in json.loads(body)["errors"]]


def test_garbage_request_line_gets_a_json_error(sample_api):
    answer = raw_exchange(sample_api, b"THIS IS NOT HTTP\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400")
    assert json.loads(body)["status"] == 400


def test_bad_content_length(sample_api):
    answer = raw_exchange(
        sample_api,
        b"PUT /api/v1/datasets/associations/lines/asso-001 HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 400")
    assert b"Content-Length" in answer


def test_percent_encoded_ids_stay_one_segment(sample_api, client):
    response = client.get(f"{sample_api.base_url}/datasets/associations/lines/a%2Fb%20c")
    assert response.status_code == 404
    assert '"a/b c"' in response.json()["message"]


_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
_param_names = st.sampled_from(
    ["q", "size", "page", "sort", "select", "hint", "nom_eq", "statut_in", "date_creation_gte", "bureau_exists",
     "departement_eq", "nb_documents_lt", "x_eq", "other", "domaines_search", "nom_nexists"]
)  # fmt: skip


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(params=st.lists(st.tuples(_param_names, _text), max_size=5))
def test_fuzzed_search_parameters_never_break_the_server(sample_api, client, params):
    response = client.get(lines_url(sample_api, "associations"), params=params)
    assert response.status_code in (200, 400), response.text
    body = response.json()
    if response.status_code == 400:
        assert body["message"]
    else:
        assert isinstance(body["results"], list) and body["total"] >= len(body["results"])


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False, allow_infinity=False) | _text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_text, children, max_size=4),
    max_leaves=12,
)
_record_keys = st.sampled_from(
    ["nom", "statut", "date_creation", "email", "departement", "domaines", "adresse", "bureau", "statuts", "region",
     "_id", "numero_rna", "description", "unknown"]
)  # fmt: skip


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(_record_keys, _json, max_size=8) | _json)
def test_fuzzed_bodies_are_validated_not_crashing(fresh_sample_api, client, body):
    # A server of its own: should a random body ever be valid, no other test sees the change.
    url = line_url(fresh_sample_api, "associations", "asso-002")
    before = client.get(url).headers["etag"]
    response = client.put(url, json=body, headers=fresh_sample_api.auth_headers())
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        assert response.json()["message"]
        assert client.get(url).headers["etag"] == before  # a refused write changes nothing
