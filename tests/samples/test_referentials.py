"""The département search behind the schema's x-fromUrl lookups, with {q} filled in."""

from __future__ import annotations

from urllib.parse import quote


def lookup_template(api, client) -> str:
    schema = client.get(
        f"{api.base_url}/datasets/associations/schema", params={"mimeType": "application/schema+json"}
    ).json()
    return schema["properties"]["departement"]["x-fromUrl"]


def fetch_items(client, template: str, query: str) -> list[dict]:
    body = client.get(template.replace("{q}", quote(query))).json()
    return body["results"]  # x-itemsProp


def test_x_from_url_template_searches_by_name(sample_api, client):
    template = lookup_template(sample_api, client)
    items = fetch_items(client, template, "finis")
    assert items == [{"code": "29", "nom": "Finistère"}]  # x-itemKey code, x-itemTitle nom


def test_search_ignores_case_and_accents_and_matches_word_starts(sample_api, client):
    template = lookup_template(sample_api, client)
    assert [item["code"] for item in fetch_items(client, template, "FINISTERE")] == ["29"]
    loire = {item["nom"] for item in fetch_items(client, template, "loire")}
    assert {"Loire", "Haute-Loire", "Loire-Atlantique", "Maine-et-Loire", "Indre-et-Loire"} <= loire
    assert "Sarthe" not in loire
    assert [item["nom"] for item in fetch_items(client, template, "haute loire")] == ["Haute-Loire"]


def test_search_by_code_prefix(sample_api, client):
    template = lookup_template(sample_api, client)
    assert [item["code"] for item in fetch_items(client, template, "2A")] == ["2A"]
    assert [item["code"] for item in fetch_items(client, template, "97")] == ["971", "972", "973", "974", "976"]


def test_empty_query_lists_everything_in_pages(sample_api, client):
    url = f"{sample_api.base_url}/referentials/departements"
    everything = client.get(url, params={"q": "", "size": 200}).json()
    assert everything["count"] == 101
    assert len(everything["results"]) == 101
    first = client.get(url).json()
    assert first["count"] == 101 and len(first["results"]) == 20  # default size


def test_every_departement_is_found_by_its_name_and_code(sample_api, client):
    url = f"{sample_api.base_url}/referentials/departements"
    everything = client.get(url, params={"size": 200}).json()["results"]
    for item in everything:
        by_name = client.get(url, params={"q": item["nom"], "size": 200}).json()["results"]
        assert item in by_name, item
        by_code = client.get(url, params={"q": item["code"], "size": 200}).json()["results"]
        assert by_code[0] == item


def test_unknown_referential(sample_api, client):
    response = client.get(f"{sample_api.base_url}/referentials/communes")
    assert response.status_code == 404
    assert "departements" in response.json()["message"]
