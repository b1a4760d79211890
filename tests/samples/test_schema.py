"""The schema endpoint: a realistic, conditional JSON Schema of a record."""

from __future__ import annotations

import copy

from tests.samples.support import lines_url

SCHEMA_PARAMS = {"mimeType": "application/schema+json", "extension": "true"}


def schema_url(api, dataset: str = "associations") -> str:
    return f"{api.base_url}/datasets/{dataset}/schema"


def test_record_schema_is_realistic(sample_api, client):
    response = client.get(schema_url(sample_api), params=SCHEMA_PARAMS)
    assert response.status_code == 200
    schema = response.json()
    properties = schema["properties"]
    assert schema["type"] == "object"
    assert set(schema["required"]) == {"nom", "statut", "date_creation", "departement", "bureau"}
    assert properties["statut"]["enum"] == ["active", "en sommeil", "dissoute"]
    assert properties["date_creation"]["format"] == "date"
    assert properties["email"]["format"] == "email"
    lookup = properties["departement"]
    assert lookup["x-fromUrl"] == f"{sample_api.base_url}/referentials/departements?q={{q}}&size=20"
    assert (lookup["x-itemsProp"], lookup["x-itemTitle"], lookup["x-itemKey"]) == ("results", "nom", "code")
    assert properties["statuts"]["x-refersTo"] == "http://schema.org/DigitalDocument"
    assert properties["region"]["x-extension"]
    assert [variant["title"] for variant in properties["adresse"]["oneOf"]] == ["Adresse postale", "Boîte postale"]
    members = properties["bureau"]
    assert members["type"] == "array" and members["items"]["type"] == "object" and members["minItems"] == 1
    assert properties["description"]["layout"] == "textarea"


def test_extension_columns_only_on_request(sample_api, client):
    without = client.get(schema_url(sample_api), params={"mimeType": "application/schema+json"}).json()
    assert "region" not in without["properties"]
    columns = client.get(schema_url(sample_api)).json()
    assert "region" not in [column["key"] for column in columns]
    with_extensions = client.get(schema_url(sample_api), params={"extension": "true"}).json()
    assert "region" in [column["key"] for column in with_extensions]


def test_x_from_url_follows_the_origin_the_client_used(sample_api, client):
    localhost = f"localhost:{sample_api.port}"
    schema = client.get(schema_url(sample_api), params=SCHEMA_PARAMS, headers={"Host": localhost}).json()
    assert schema["properties"]["departement"]["x-fromUrl"].startswith(f"http://{localhost}/api/v1/")
    garbage = client.get(schema_url(sample_api), params=SCHEMA_PARAMS, headers={"Host": "evil/../x"}).json()
    assert garbage["properties"]["departement"]["x-fromUrl"].startswith(sample_api.origin + "/")


def test_schema_is_conditional(fresh_sample_api, client):
    api = fresh_sample_api
    first = client.get(schema_url(api), params=SCHEMA_PARAMS)
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    unchanged = client.get(schema_url(api), params=SCHEMA_PARAMS, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged.headers["etag"] == etag
    weak = client.get(schema_url(api), params=SCHEMA_PARAMS, headers={"If-None-Match": f'"other", W/{etag}'})
    assert weak.status_code == 304  # If-None-Match compares weakly and accepts a list

    changed = copy.deepcopy(api.dataset_schema("associations"))
    changed["properties"]["nom"]["maxLength"] = 80
    api.set_schema("associations", changed)
    after = client.get(schema_url(api), params=SCHEMA_PARAMS, headers={"If-None-Match": etag})
    assert after.status_code == 200
    assert after.headers["etag"] != etag
    assert after.json()["properties"]["nom"]["maxLength"] == 80


def test_a_changed_schema_is_enforced(fresh_sample_api, client):
    api = fresh_sample_api
    changed = copy.deepcopy(api.dataset_schema("associations"))
    changed["properties"]["nom"]["maxLength"] = 10
    api.set_schema("associations", changed)
    record = client.get(f"{lines_url(api, 'associations')}/asso-001").json()
    refused = client.put(f"{lines_url(api, 'associations')}/asso-001", json=record, headers=api.auth_headers())
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"] == "/nom"


def test_unknown_mime_type_is_refused(sample_api, client):
    response = client.get(schema_url(sample_api), params={"mimeType": "text/csv"})
    assert response.status_code == 400
    assert "application/schema+json" in response.json()["message"]
    bad_flag = client.get(schema_url(sample_api), params={"extension": "maybe"})
    assert bad_flag.status_code == 400


def test_every_seed_record_satisfies_its_schema(sample_api, client):
    """The sample data is consistent: each seed record, sent back as read, is accepted."""
    for dataset in ("associations", "bibliotheques"):
        schema = client.get(schema_url(sample_api, dataset), params=SCHEMA_PARAMS).json()
        rows = client.get(lines_url(sample_api, dataset), params={"size": 100}).json()["results"]
        seeded = [row for row in rows if row["_id"].startswith(("asso-", "bib-"))]
        assert len(seeded) == (6 if dataset == "associations" else 5)
        from jsonschema import Draft202012Validator

        validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        for row in seeded:
            data = {key: value for key, value in row.items() if not key.startswith("_")}
            assert not list(validator.iter_errors(data)), row["_id"]
