"""The OpenAPI schema tells the truth: request bodies, answers and every status code, checked by
schemathesis against the app in this process (no 5xx, no answer the schema does not describe)."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from schemathesis.python import asgi

from qipan.server import create_app
from qipan.server.limits import Limits

from .helpers import connect, create, until

CASES_PER_OPERATION = 100
cases: list[str] = []


def fuzzed_app() -> Any:
    db = Path(tempfile.mkdtemp(prefix="qipan-openapi-")) / "qipan.db"
    # Rates and the cap on games between AIs off: the fuzzer should reach the routes, and a valid
    # request must not meet a 429 or 503 (both are tested in test_edge.py and test_caps.py).
    limits = Limits(create_rate=None, join_rate=None, message_rate=None, analyse_rate=None, position_rate=None)
    return create_app(str(db), ai_delay=0.0, ai_processes=False, limits=limits, max_ai_games=100_000)


# Whether a configuration is valid depends on the game (its variants, options and their ranges,
# its player count), which no JSON schema can say: a schema-valid request may be answered 400.
# A request breaking a long string's maxLength (an inline Sheng-Ke deck may be 8192 characters)
# can only be larger than the edge's body limit: its 413 refuses it as well as a 400 would.
CONFIG = SchemathesisConfig.from_dict({"checks": {
    "positive_data_acceptance": {"expected-statuses": ["2xx", "400", "403", "404", "409"]},
    "negative_data_rejection": {"expected-statuses": ["400", "401", "403", "404", "405", "406", "409", "413",
                                                      "415", "422", "428", "429", "5xx"]}}})
app = fuzzed_app()
schema = schemathesis.openapi.from_asgi("/api/openapi.json", app, config=CONFIG)
real_ids: list[str] = []


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> st.SearchStrategy[Any]:
    """Most generated game ids name no game (404): two in three cases ask about real games (one
    between two people, one against an AI), so their answers are checked against the schema too."""
    if not path_parameters or "game_id" not in path_parameters:
        return st.just(path_parameters)
    if not real_ids:
        with asgi.get_client(app) as client:
            for body in ({"game": "abalone"}, {"game": "shengke", "seats": [{"kind": "human"},
                                                                             {"kind": "ai", "level": "random"}]}):
                real_ids.append(client.post("/api/games", json=body).json()["id"])
    return st.sampled_from([path_parameters, *({**path_parameters, "game_id": i} for i in real_ids)])


@pytest.fixture(scope="module", autouse=True)
def stop_the_fuzzed_app() -> Iterator[None]:
    yield
    asgi.shutdown_lifespans()  # schemathesis started the app's lifespan; this stops its hub
    print(f"\nschemathesis: {len(cases)} cases: {dict(Counter(cases))}")


@schema.parametrize()
@settings(max_examples=CASES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case: Any) -> None:
    cases.append(case.operation.label)
    case.call_and_validate()


# -- the schema itself ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    db: Path = tmp_path_factory.mktemp("schema") / "qipan.db"
    with TestClient(create_app(str(db), ai_processes=False)) as client:
        document: dict[str, Any] = client.get("/api/openapi.json").json()
    return document


def test_every_post_declares_its_json_body_and_no_route_documents_422(openapi: dict[str, Any]) -> None:
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            assert "422" not in operation["responses"], f"{method} {path}"
            if method == "post":
                body = operation["requestBody"]
                assert body["required"] is True
                assert list(body["content"]) == ["application/json"]
                assert {"400", "403", "413", "415", "429"} <= set(operation["responses"]), f"{method} {path}"


def test_answers_and_errors_have_schemas(openapi: dict[str, Any]) -> None:
    create = openapi["paths"]["/api/games"]["post"]
    assert create["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Created"}
    assert create["responses"]["400"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"}
    record = openapi["paths"]["/api/games/{game_id}/record"]["get"]
    assert {"200", "404", "409"} <= set(record["responses"])
    request = openapi["components"]["schemas"]["CreateGame"]
    assert request["additionalProperties"] is False
    assert request["properties"]["game"]["maxLength"] == 40


def test_the_answers_about_a_finished_game_match_the_schema(client: TestClient) -> None:
    """What random ids rarely reach: a finished game's summary, record, last frame and rematch."""
    created = create(client)
    with connect(client, created, 0) as ws:
        until(ws, lambda m: m["type"] == "update")
        ws.send_json({"type": "resign"})
        until(ws, lambda m: m["type"] == "update" and m["result"] is not None)
    game = f"/api/games/{created['id']}"
    answers = [
        ("/api/games", "GET", client.get("/api/games?status=finished")),
        ("/api/games/{game_id}", "GET", client.get(game)),
        ("/api/games/{game_id}/record", "GET", client.get(f"{game}/record")),
        ("/api/games/{game_id}/replay/{ply}", "GET", client.get(f"{game}/replay/0")),
        ("/api/games/{game_id}/rematch", "POST", client.post(f"{game}/rematch", json={"token": created["token"]})),
    ]
    assert [response.status_code for _, _, response in answers] == [200, 200, 200, 200, 201]
    assert answers[1][2].json()["result"]["reason"] == "resignation" and answers[3][2].json()["result"]
    for path, method, response in answers:
        schema[path][method].validate_response(response)
