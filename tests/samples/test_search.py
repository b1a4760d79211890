"""Listing datasets and searching records: q, column filters, sort, select, pages, hints."""

from __future__ import annotations

from tests.samples.support import lines_url


def ids(response) -> list[str]:
    return [row["_id"] for row in response.json()["results"]]


def test_list_datasets(sample_api, client):
    response = client.get(f"{sample_api.base_url}/datasets")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [item["id"] for item in body["results"]] == ["associations", "bibliotheques"]
    first = body["results"][0]
    assert set(first) == {"id", "title", "description", "count", "createdAt", "updatedAt", "href"}
    assert first["count"] >= 6
    assert first["href"] == f"{sample_api.base_url}/datasets/associations"


def test_list_datasets_search_select_and_pages(sample_api, client):
    found = client.get(f"{sample_api.base_url}/datasets", params={"q": "biblioth", "select": "id,title"}).json()
    assert found == {"count": 1, "results": [{"id": "bibliotheques", "title": "Bibliothèques et médiathèques"}]}
    first_page = client.get(f"{sample_api.base_url}/datasets", params={"size": 1}).json()
    assert [item["id"] for item in first_page["results"]] == ["associations"]
    second_page = client.get(first_page["next"]).json()
    assert [item["id"] for item in second_page["results"]] == ["bibliotheques"]
    assert "next" not in second_page
    refused = client.get(f"{sample_api.base_url}/datasets", params={"select": "id,secret"})
    assert refused.status_code == 400 and "secret" in refused.json()["message"]


def test_describe_dataset_lists_columns(sample_api, client):
    dataset = client.get(f"{sample_api.base_url}/datasets/associations").json()
    columns = {column["key"]: column for column in dataset["schema"]}
    assert columns["nom"]["required"] is True
    assert columns["statut"]["enum"] == ["active", "en sommeil", "dissoute"]
    assert columns["date_creation"]["format"] == "date"
    assert columns["region"]["x-extension"] == "departements/region"
    assert columns["statuts"]["x-refersTo"] == "http://schema.org/DigitalDocument"
    assert columns["adresse"]["oneOf"] == ["Adresse postale", "Boîte postale"]
    assert columns["domaines"]["items"]["enum"][0] == "sport"


def test_full_text_search_ignores_case_and_accents(sample_api, client):
    assert ids(client.get(lines_url(sample_api, "associations"), params={"q": "VOILES iroise"})) == ["asso-001"]
    assert ids(client.get(lines_url(sample_api, "associations"), params={"q": "choeur"})) == ["asso-002"]
    assert ids(client.get(lines_url(sample_api, "bibliotheques"), params={"q": "mediatheque"})) == [
        "bib-001",
        "bib-005",
    ]
    nothing = client.get(lines_url(sample_api, "associations"), params={"q": "zzzz"}).json()
    assert nothing == {"total": 0, "results": []}


def test_column_filters(sample_api, client):
    url = lines_url(sample_api, "associations")
    assert ids(client.get(url, params={"statut_eq": "dissoute"})) == ["asso-006"]
    assert ids(client.get(url, params={"departement_eq": "29"})) == ["asso-001"]  # a lookup compares its code
    assert ids(client.get(url, params={"departement_in": "29,75"})) == ["asso-001", "asso-003"]
    assert ids(client.get(url, params={"domaines_eq": "santé"})) == ["asso-004"]  # an array matches any item
    assert ids(client.get(url, params={"date_creation_lt": "1990-01-01"})) == ["asso-004", "asso-006"]
    assert "asso-004" not in ids(client.get(url, params={"email_exists": "true"}))
    assert ids(client.get(url, params={"nom_search": "jardins faubourg"})) == ["asso-003"]
    libraries = lines_url(sample_api, "bibliotheques")
    assert ids(client.get(libraries, params={"nb_documents_gte": "100000"})) == ["bib-003", "bib-004"]
    assert ids(client.get(libraries, params={"acces_pmr_eq": "false"})) == ["bib-002"]


def test_filter_errors_name_the_columns(sample_api, client):
    url = lines_url(sample_api, "associations")
    unknown_column = client.get(url, params={"couleur_eq": "bleu"})
    assert unknown_column.status_code == 400
    assert "couleur" in unknown_column.json()["message"] and "date_creation" in unknown_column.json()["message"]
    unknown_param = client.get(url, params={"debug": "1"})
    assert unknown_param.status_code == 400
    assert "<column>_<operator>" in unknown_param.json()["message"]
    not_a_number = client.get(lines_url(sample_api, "bibliotheques"), params={"nb_documents_gt": "many"})
    assert not_a_number.status_code == 400
    too_big = client.get(url, params={"size": "1000"})
    assert too_big.status_code == 400 and "between 0 and 100" in too_big.json()["message"]


def test_sort_select_and_pagination(sample_api, client):
    url = lines_url(sample_api, "bibliotheques")
    by_size = client.get(url, params={"sort": "-nb_documents", "select": "nom,nb_documents"}).json()
    assert [row["nb_documents"] for row in by_size["results"]] == [230000, 150000, 84500, 61000, 12300]
    assert set(by_size["results"][0]) == {"_id", "nom", "nb_documents"}
    # Records without a value come last in both directions.
    for order in ("date_ouverture", "-date_ouverture"):
        assert ids(client.get(url, params={"sort": order}))[-1] == "bib-003"
    first = client.get(url, params={"sort": "nom", "size": 2}).json()
    assert first["total"] == 5 and len(first["results"]) == 2
    second = client.get(first["next"]).json()
    third = client.get(second["next"]).json()
    assert "next" not in third
    walked = [row["_id"] for page in (first, second, third) for row in page["results"]]
    assert walked == ids(client.get(url, params={"sort": "nom"}))
    assert client.get(url, params={"sort": "couleur"}).status_code == 400


def test_hints(sample_api, client):
    body = client.get(lines_url(sample_api, "associations"), params={"hint": "true", "q": "introuvable"}).json()
    hints = body["meta"]["hints"]
    assert any("_eq" in hint and "departement" in hint for hint in hints)
    assert any("fewer or shorter words" in hint for hint in hints)
    assert "meta" not in client.get(lines_url(sample_api, "associations")).json()
