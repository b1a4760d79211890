"""Small helpers shared by the sample API tests."""

from __future__ import annotations

import httpx

from deskcheck.samples.records_api import SampleApi

# A record of the associations dataset that the schema accepts, for creating throw-away records.
NEW_ASSOCIATION = {
    "nom": "Atelier vélo solidaire",
    "statut": "active",
    "date_creation": "2021-03-15",
    "email": "contact@atelier-velo.example.org",
    "departement": {"code": "35", "nom": "Ille-et-Vilaine"},
    "domaines": ["environnement", "social"],
    "adresse": {"type": "postale", "voie": "5 rue de la Gare", "code_postal": "35000", "commune": "Rennes"},
    "bureau": [{"nom": "Léa Guillou", "fonction": "présidence", "email": "lea.guillou@example.org"}],
}


def line_url(api: SampleApi, dataset: str, line_id: str) -> str:
    return f"{api.base_url}/datasets/{dataset}/lines/{line_id}"


def lines_url(api: SampleApi, dataset: str) -> str:
    return f"{api.base_url}/datasets/{dataset}/lines"


def create_association(api: SampleApi, client: httpx.Client, **changes) -> httpx.Response:
    """POST a new association (with ``changes`` over the default record) with the write token."""
    response = client.post(
        lines_url(api, "associations"), json={**NEW_ASSOCIATION, **changes}, headers=api.auth_headers()
    )
    assert response.status_code == 201, response.text
    return response
