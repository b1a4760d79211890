"""Records over real HTTP on 127.0.0.1: read with ETag, conditional writes, tokens, validation,
create and delete."""

from __future__ import annotations

from email.utils import format_datetime, parsedate_to_datetime

from tests.samples.support import NEW_ASSOCIATION, create_association, line_url, lines_url


def test_read_record_carries_etag_and_last_modified(sample_api, client):
    response = client.get(line_url(sample_api, "associations", "asso-001"))
    assert response.status_code == 200
    record = response.json()
    assert record["_id"] == "asso-001"
    assert record["nom"] == "Les Voiles de l'Iroise"
    assert record["region"] == "Bretagne"  # computed from the département
    assert response.headers["etag"].startswith('"') and response.headers["etag"].endswith('"')
    assert parsedate_to_datetime(response.headers["last-modified"]).year == 2024
    assert response.headers["content-type"].startswith("application/json")


def test_read_record_is_conditional(sample_api, client):
    first = client.get(line_url(sample_api, "associations", "asso-002"))
    again = client.get(
        line_url(sample_api, "associations", "asso-002"), headers={"If-None-Match": first.headers["etag"]}
    )
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == first.headers["etag"]
    by_date = client.get(
        line_url(sample_api, "associations", "asso-002"), headers={"If-Modified-Since": first.headers["last-modified"]}
    )
    assert by_date.status_code == 304
    other = client.get(line_url(sample_api, "associations", "asso-002"), headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200


def test_put_with_current_etag_saves_and_returns_new_version(fresh_sample_api, client):
    api = fresh_sample_api
    read = client.get(line_url(api, "associations", "asso-001"))
    record = read.json()
    record["statut"] = "en sommeil"
    record["region"] = "Corse"  # a computed column: replaced by the server
    saved = client.put(
        line_url(api, "associations", "asso-001"),
        json=record,
        headers={"If-Match": read.headers["etag"], **api.auth_headers()},
    )
    assert saved.status_code == 200, saved.text
    assert saved.json()["statut"] == "en sommeil"
    assert saved.json()["region"] == "Bretagne"
    assert saved.headers["etag"] != read.headers["etag"]
    assert parsedate_to_datetime(saved.headers["last-modified"]) > parsedate_to_datetime(read.headers["last-modified"])
    reread = client.get(line_url(api, "associations", "asso-001"))
    assert reread.json()["statut"] == "en sommeil"
    assert reread.headers["etag"] == saved.headers["etag"]


def test_put_with_stale_etag_answers_412_and_writes_nothing(fresh_sample_api, client):
    api = fresh_sample_api
    read = client.get(line_url(api, "associations", "asso-003"))
    stale_etag = read.headers["etag"]
    api.update_line("associations", "asso-003", {"statut": "en sommeil"})  # someone else saves first

    mine = {**read.json(), "email": "nouvelle-adresse@example.org"}
    refused = client.put(
        line_url(api, "associations", "asso-003"), json=mine, headers={"If-Match": stale_etag, **api.auth_headers()}
    )
    assert refused.status_code == 412
    body = refused.json()
    assert body["status"] == 412
    assert "changed since you read it" in body["message"] and "Read it again" in body["message"]
    current = client.get(line_url(api, "associations", "asso-003"))
    assert body["current_etag"] == current.headers["etag"]
    assert current.json()["email"] == "jardins.faubourg@example.org"
    assert current.json()["statut"] == "en sommeil"


def test_weak_etag_never_satisfies_if_match(fresh_sample_api, client):
    api = fresh_sample_api
    read = client.get(line_url(api, "bibliotheques", "bib-001"))
    weak = "W/" + read.headers["etag"]
    refused = client.put(
        line_url(api, "bibliotheques", "bib-001"), json=read.json(), headers={"If-Match": weak, **api.auth_headers()}
    )
    assert refused.status_code == 412
    star = client.put(
        line_url(api, "bibliotheques", "bib-001"), json=read.json(), headers={"If-Match": "*", **api.auth_headers()}
    )
    assert star.status_code == 200


def test_if_unmodified_since_detects_a_change_within_the_same_second(fresh_sample_api, client):
    api = fresh_sample_api
    read = client.get(line_url(api, "bibliotheques", "bib-002"))
    first = client.put(
        line_url(api, "bibliotheques", "bib-002"),
        json=read.json(),
        headers={"If-Unmodified-Since": read.headers["last-modified"], **api.auth_headers()},
    )
    assert first.status_code == 200
    # A second writer that read the new version, and a change right after it (same second).
    api.update_line("bibliotheques", "bib-002", {"nb_documents": 12400})
    stale = client.put(
        line_url(api, "bibliotheques", "bib-002"),
        json=first.json(),
        headers={"If-Unmodified-Since": first.headers["last-modified"], **api.auth_headers()},
    )
    assert stale.status_code == 412
    assert "Last-Modified" in stale.json()["message"]


def test_if_match_wins_over_if_unmodified_since(fresh_sample_api, client):
    api = fresh_sample_api
    read = client.get(line_url(api, "associations", "asso-004"))
    long_ago = format_datetime(parsedate_to_datetime("Mon, 01 Jan 2001 00:00:00 GMT"), usegmt=True)
    saved = client.put(
        line_url(api, "associations", "asso-004"),
        json=read.json(),
        headers={"If-Match": read.headers["etag"], "If-Unmodified-Since": long_ago, **api.auth_headers()},
    )
    assert saved.status_code == 200


def test_writes_need_the_write_token(sample_api, client):
    url = line_url(sample_api, "associations", "asso-005")
    record = client.get(url).json()

    anonymous = client.put(url, json=record)
    assert anonymous.status_code == 401
    assert "Bearer" in anonymous.headers["www-authenticate"]
    assert "token" in anonymous.json()["message"]

    read_only = client.put(url, json=record, headers=sample_api.auth_headers("read"))
    assert read_only.status_code == 403
    assert "write token" in read_only.json()["message"]

    unknown = client.put(url, json=record, headers={"Authorization": "Bearer not-a-token"})
    assert unknown.status_code == 401
    assert "not recognised" in unknown.json()["message"]

    not_bearer = client.put(url, json=record, headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert not_bearer.status_code == 401

    for refused in (
        client.post(lines_url(sample_api, "associations"), json=NEW_ASSOCIATION),
        client.delete(url, headers=sample_api.auth_headers("read")),
    ):
        assert refused.status_code in (401, 403)
    assert client.get(url).json() == record  # nothing changed


def test_reads_are_open_but_an_unknown_token_is_refused(sample_api, client):
    assert client.get(lines_url(sample_api, "associations"), headers=sample_api.auth_headers("read")).status_code == 200
    assert client.get(lines_url(sample_api, "associations"), headers=sample_api.auth_headers()).status_code == 200
    refused = client.get(lines_url(sample_api, "associations"), headers={"Authorization": "Bearer typo"})
    assert refused.status_code == 401


def test_invalid_record_answers_400_listing_every_problem(fresh_sample_api, client):
    api = fresh_sample_api
    url = line_url(api, "associations", "asso-001")
    before = client.get(url)
    record = before.json()
    record.update(
        {
            "date_creation": "2024-02-30",
            "email": "pas-une-adresse",
            "statut": "fermée",
            "bureau": [],
            "departement": {"code": "29", "nom": "Morbihan"},
            "couleur": "bleu",
        }
    )
    del record["nom"]
    refused = client.put(url, json=record, headers=api.auth_headers())
    assert refused.status_code == 400
    body = refused.json()
    problems = {problem["path"]: problem["message"] for problem in body["errors"]}
    assert set(problems) == {
        "/nom",
        "/date_creation",
        "/email",
        "/statut",
        "/bureau",
        "/departement/nom",
        "/couleur",
    }
    assert "required" in problems["/nom"]
    assert "YYYY-MM-DD" in problems["/date_creation"]
    assert "name@example.org" in problems["/email"]
    assert '"active"' in problems["/statut"]
    assert "at least 1" in problems["/bureau"]
    assert '"Finistère"' in problems["/departement/nom"]
    assert "not a column" in problems["/couleur"]
    assert body["message"].startswith("The record is not valid (7 problems)")
    after = client.get(url)
    assert after.headers["etag"] == before.headers["etag"]


def test_one_of_reports_the_errors_of_the_chosen_variant(fresh_sample_api, client):
    api = fresh_sample_api
    url = line_url(api, "associations", "asso-002")
    record = client.get(url).json()

    record["adresse"] = {"type": "boite-postale", "boite_postale": "4021", "code_postal": "69241", "commune": "Lyon"}
    chosen = client.put(url, json=record, headers=api.auth_headers())
    assert chosen.status_code == 400
    assert [problem["path"] for problem in chosen.json()["errors"]] == ["/adresse/boite_postale"]

    record["adresse"] = {"type": "maison", "commune": "Lyon"}
    neither = client.put(url, json=record, headers=api.auth_headers())
    assert neither.status_code == 400
    [problem] = neither.json()["errors"]
    assert problem["path"] == "/adresse"
    assert "Adresse postale" in problem["message"] and "Boîte postale" in problem["message"]

    record["adresse"] = {"type": "boite-postale", "boite_postale": "BP 4021", "code_postal": "69241", "commune": "Lyon"}
    assert client.put(url, json=record, headers=api.auth_headers()).status_code == 200


def test_post_creates_a_record_with_location_and_etag(sample_api, client):
    created = create_association(sample_api, client)
    record = created.json()
    assert record["_id"] and record["region"] == "Bretagne"
    assert created.headers["location"] == line_url(sample_api, "associations", record["_id"])
    read = client.get(created.headers["location"])
    assert read.status_code == 200
    assert read.headers["etag"] == created.headers["etag"]
    assert read.json()["nom"] == NEW_ASSOCIATION["nom"]


def test_post_ignores_metadata_and_computed_columns(sample_api, client):
    created = create_association(sample_api, client, _id="chosen-by-client", region="Occitanie", _updatedAt="x")
    record = created.json()
    assert record["_id"] != "chosen-by-client"
    assert record["region"] == "Bretagne"


def test_post_invalid_record_is_refused(sample_api, client):
    refused = client.post(lines_url(sample_api, "associations"), json={"nom": "X"}, headers=sample_api.auth_headers())
    assert refused.status_code == 400
    paths = {problem["path"] for problem in refused.json()["errors"]}
    assert {"/nom", "/statut", "/date_creation", "/departement", "/bureau"} <= paths


def test_delete_is_conditional(sample_api, client):
    url = create_association(sample_api, client, nom="Association à supprimer").headers["location"]
    etag = client.get(url).headers["etag"]
    client.put(url, json={**NEW_ASSOCIATION, "statut": "dissoute"}, headers=sample_api.auth_headers())
    stale = client.delete(url, headers={"If-Match": etag, **sample_api.auth_headers()})
    assert stale.status_code == 412
    deleted = client.delete(url, headers={"If-Match": client.get(url).headers["etag"], **sample_api.auth_headers()})
    assert deleted.status_code == 204
    assert deleted.content == b""
    assert client.get(url).status_code == 404


def test_missing_things_answer_404_with_a_next_step(sample_api, client):
    dataset = client.get(f"{sample_api.base_url}/datasets/nope/lines")
    assert dataset.status_code == 404
    assert "associations" in dataset.json()["message"]
    line = client.get(line_url(sample_api, "associations", "nope"))
    assert line.status_code == 404
    assert "/lines" in line.json()["message"]
    put = client.put(line_url(sample_api, "associations", "nope"), json={}, headers=sample_api.auth_headers())
    assert put.status_code == 404
    put_if_match = client.put(
        line_url(sample_api, "associations", "nope"), json={}, headers={"If-Match": '"x"', **sample_api.auth_headers()}
    )
    assert put_if_match.status_code == 412


def test_method_not_allowed_lists_the_allowed_ones(sample_api, client):
    response = client.patch(line_url(sample_api, "associations", "asso-001"), json={})
    assert response.status_code == 405
    assert set(response.headers["allow"].split(", ")) == {"GET", "HEAD", "PUT", "DELETE"}


def test_bad_bodies(sample_api, client):
    url = line_url(sample_api, "associations", "asso-001")
    headers = sample_api.auth_headers()
    not_json = client.put(url, content=b"{nom: 1}", headers={**headers, "Content-Type": "application/json"})
    assert not_json.status_code == 400
    assert "not valid JSON" in not_json.json()["message"]
    wrong_type = client.put(
        url, content=b"nom=1", headers={**headers, "Content-Type": "application/x-www-form-urlencoded"}
    )
    assert wrong_type.status_code == 415
    empty = client.put(url, content=b"", headers={**headers, "Content-Type": "application/json"})
    assert empty.status_code == 400
    array = client.put(url, json=[1, 2], headers=headers)
    assert array.status_code == 400
    assert "JSON object" in array.json()["message"]


def test_head_answers_headers_only(sample_api, client):
    get = client.get(line_url(sample_api, "associations", "asso-001"))
    head = client.head(line_url(sample_api, "associations", "asso-001"))
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-length"] == get.headers["content-length"]
    assert head.headers["etag"] == get.headers["etag"]


def test_records_without_etags_still_carry_last_modified(sample_api_factory, client):
    api = sample_api_factory(etags=False)
    read = client.get(line_url(api, "associations", "asso-001"))
    assert "etag" not in read.headers
    assert read.headers["last-modified"]
    saved = client.put(
        line_url(api, "associations", "asso-001"),
        json=read.json(),
        headers={"If-Unmodified-Since": read.headers["last-modified"], **api.auth_headers()},
    )
    assert saved.status_code == 200
    assert "etag" not in saved.headers
    not_modified = client.get(
        line_url(api, "associations", "asso-001"), headers={"If-Modified-Since": saved.headers["last-modified"]}
    )
    assert not_modified.status_code == 304
