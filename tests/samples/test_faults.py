"""Fault injection: off by default, in-process always, over HTTP only when enabled."""

from __future__ import annotations

import threading

import httpx
import pytest

from tests.samples.support import line_url


def test_fail_next_put_answers_500_and_writes_nothing(fresh_sample_api, client):
    api = fresh_sample_api
    url = line_url(api, "associations", "asso-001")
    read = client.get(url)
    api.fail_next("PUT", status=500, message="database on fire")
    failed = client.put(url, json={**read.json(), "statut": "dissoute"}, headers=api.auth_headers())
    assert failed.status_code == 500
    assert failed.json() == {"status": 500, "message": "database on fire"}
    assert client.get(url).headers["etag"] == read.headers["etag"]
    # Used up: the next PUT goes through.
    again = client.put(url, json={**read.json(), "statut": "dissoute"}, headers=api.auth_headers())
    assert again.status_code == 200
    assert api.pending_faults() == []


def test_faults_match_method_path_and_count(sample_api, client):
    api = sample_api
    api.inject_fault("GET", path="/api/v1/datasets/*/schema", status=503, times=2)
    schema_url = f"{api.base_url}/datasets/associations/schema"
    assert client.get(f"{api.base_url}/datasets").status_code == 200  # another path
    assert client.get(schema_url).status_code == 503
    assert client.get(schema_url).status_code == 503
    assert client.get(schema_url).status_code == 200
    assert client.get(schema_url).json()


def test_fault_default_message(sample_api, client):
    sample_api.fail_next("GET", status=502)
    response = client.get(f"{sample_api.base_url}/datasets")
    assert response.status_code == 502
    assert "Injected fault" in response.json()["message"]


def test_hang_makes_a_client_time_out_and_stop_ends_it(sample_api_factory):
    api = sample_api_factory()
    api.hang_next("PUT", seconds=600)
    url = line_url(api, "associations", "asso-001")
    record = httpx.get(url).json()
    with pytest.raises(httpx.ReadTimeout):
        httpx.put(url, json=record, headers=api.auth_headers(), timeout=0.5)
    # The record was not written, and the hanging handler does not keep stop() waiting.
    assert httpx.get(url).json() == record
    stopper = threading.Thread(target=api.stop)
    stopper.start()
    stopper.join(60)
    assert not stopper.is_alive()
    assert not api.running


def test_a_delay_without_status_lets_the_request_through(sample_api, client):
    sample_api.inject_fault("GET", path="/api/v1/datasets", delay=0.01)
    response = client.get(f"{sample_api.base_url}/datasets")
    assert response.status_code == 200
    assert response.json()["count"] == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"status": 200}, "between 400 and 599"),
        ({"status": 500, "delay": -1}, "delay"),
        ({}, "status to answer, a delay"),
        ({"status": 500, "times": 0}, "times"),
        ({"method": "P U T", "status": 500}, "method"),
    ],
)
def test_bad_faults_are_refused(sample_api, options, message):
    with pytest.raises(ValueError, match=message):
        sample_api.inject_fault(**options)


def test_fault_endpoint_is_absent_by_default(sample_api, client):
    response = client.post(f"{sample_api.origin}/_faults", json={"status": 500}, headers=sample_api.auth_headers())
    assert response.status_code == 404
    assert sample_api.pending_faults() == []


def test_fault_endpoint_when_enabled(sample_api_factory, client):
    api = sample_api_factory(fault_injection_over_http=True)
    url = f"{api.origin}/_faults"
    assert client.post(url, json={"method": "PUT", "status": 500}).status_code == 401
    assert client.post(url, json={"method": "PUT", "status": 500}, headers=api.auth_headers("read")).status_code == 403
    bad = client.post(url, json={"status": 200}, headers=api.auth_headers())
    assert bad.status_code == 400 and "between 400 and 599" in bad.json()["message"]
    unknown = client.post(url, json={"status": 500, "sometimes": True}, headers=api.auth_headers())
    assert unknown.status_code == 400 and "sometimes" in unknown.json()["message"]

    added = client.post(url, json={"method": "put", "status": 500, "message": "boom"}, headers=api.auth_headers())
    assert added.status_code == 201
    assert added.json()["method"] == "PUT"
    listed = client.get(url, headers=api.auth_headers()).json()["faults"]
    assert [fault["status"] for fault in listed] == [500]

    record_url = line_url(api, "associations", "asso-001")
    record = client.get(record_url).json()
    failed = client.put(record_url, json=record, headers=api.auth_headers())
    assert failed.status_code == 500 and failed.json()["message"] == "boom"

    client.post(url, json={"status": 500, "times": 3}, headers=api.auth_headers())
    assert client.delete(url, headers=api.auth_headers()).status_code == 204  # faults never hit /_faults
    assert client.get(url, headers=api.auth_headers()).json() == {"faults": []}
    assert client.put(record_url, json=record, headers=api.auth_headers()).status_code == 200
