"""The committed JSON Schemas: up to date with the models, and agreeing with the examples.

``schemas/`` is generated from the ``service/protocol*.py`` models (``make schemas``) and is
what front ends build against, so this module checks that it is current, that the hand-picked
examples under ``schemas/examples/`` (most of them captured from a running service) pass
or fail both the schemas and the pydantic models alike, and that the AsyncAPI document of
the WebSocket channel only points at schema files that exist.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from pydantic import BaseModel, TypeAdapter, ValidationError
from referencing import Registry, Resource

from service import protocol
from service.protocol import arenas as protocol_arenas
from service.protocol import games as protocol_games
from service.protocol import pairing as protocol_pairing
from service.protocol import players as protocol_players
from service.protocol import races as protocol_races
from service.protocol import ws as protocol_ws
from service.schemas import generate, render
from tests import support

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
EXAMPLES = SCHEMAS / "examples"
ASYNCAPI = SCHEMAS / "asyncapi.yaml"
SCHEMA_FORMAT = "application/schema+json;version=draft-2020-12"


# --------------------------------------------------------------------------- helpers


def committed_schema_files() -> set[str]:
    """Every file under schemas/ that the generator owns (all but examples and AsyncAPI)."""
    return {
        path.relative_to(SCHEMAS).as_posix()
        for path in SCHEMAS.rglob("*")
        if path.is_file() and path.relative_to(SCHEMAS).parts[0] != "examples" and path != ASYNCAPI
    }


def load_committed() -> tuple[Registry, dict[str, dict[str, Any]]]:
    registry: Registry = Registry()
    documents: dict[str, dict[str, Any]] = {}
    for name in sorted(committed_schema_files()):
        if not name.endswith(".json") or name == "openapi.json":
            continue
        document = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
        documents[name] = document
        registry = registry.with_resource(document["$id"], Resource.from_contents(document))
    return registry, documents


REGISTRY, DOCUMENTS = load_committed()


def kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def pydantic_adapters() -> dict[str, TypeAdapter[Any]]:
    """Schema file -> the pydantic type that the same document must satisfy."""
    adapters: dict[str, TypeAdapter[Any]] = {
        "client-message.json": protocol_ws.CLIENT_MESSAGE,
        "server-message.json": protocol_ws.SERVER_MESSAGE,
        "action.json": protocol.ACTION_INPUT,
        "public-state.json": TypeAdapter(protocol.PublicState),
    }
    modules = [
        protocol,
        protocol_games,
        protocol_races,
        protocol_players,
        protocol_pairing,
        protocol_arenas,
        protocol_ws,
    ]
    for value in [value for module in modules for value in vars(module).values()]:
        if isinstance(value, type) and issubclass(value, BaseModel):
            name = f"rest/{kebab(value.__name__)}.json"
            if name in DOCUMENTS:
                adapters[name] = TypeAdapter(value)
    return adapters


ADAPTERS = pydantic_adapters()


def schema_of_example(path: Path) -> str:
    """``<schema>.<label>.json``: dots in <schema> stand for `/` (``rest.problem.x.json``)."""
    schema, _, label = path.name.removesuffix(".json").rpartition(".")
    assert schema and re.fullmatch(r"[a-z0-9-]+", label), (
        f"{path.name}: example names are <schema>.<label>.json (see schemas/examples/README.md)"
    )
    return schema.replace(".", "/") + ".json"


def examples(kind: str) -> list[Path]:
    return sorted((EXAMPLES / kind).glob("*.json"))


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(DOCUMENTS[name], registry=REGISTRY)


def ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


VALID = examples("valid")
INVALID = examples("invalid")


# --------------------------------------------------------------------------- (a) up to date


def test_committed_schemas_are_exactly_what_the_models_generate() -> None:
    generated = generate()
    committed = committed_schema_files()
    missing = sorted(set(generated) - committed)
    unexpected = sorted(committed - set(generated))
    different = sorted(
        name
        for name in set(generated) & committed
        if (SCHEMAS / name).read_text(encoding="utf-8") != render(generated[name])
    )
    assert not (missing or unexpected or different), (
        "schemas/ does not match the service/protocol*.py models "
        f"(missing: {missing}, unexpected: {unexpected}, different: {different}); "
        "run `make schemas` and commit the result"
    )


def test_every_schema_is_valid_draft_2020_12() -> None:
    for name, document in DOCUMENTS.items():
        assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        Draft202012Validator.check_schema(document)


# --------------------------------------------------------------------------- (b, c) examples


def test_there_are_examples_of_both_kinds() -> None:
    assert len(VALID) >= 20 and len(INVALID) >= 10
    for path in [*VALID, *INVALID]:
        assert schema_of_example(path) in DOCUMENTS, f"{path.name}: no such schema"


@pytest.mark.parametrize("path", VALID, ids=ids(VALID))
def test_valid_example_passes_the_schema(path: Path) -> None:
    validator(schema_of_example(path)).validate(load(path))


@pytest.mark.parametrize("path", VALID, ids=ids(VALID))
def test_valid_example_passes_the_model(path: Path) -> None:
    ADAPTERS[schema_of_example(path)].validate_python(load(path))


@pytest.mark.parametrize("path", INVALID, ids=ids(INVALID))
def test_invalid_example_fails_the_schema(path: Path) -> None:
    errors = list(validator(schema_of_example(path)).iter_errors(load(path)))
    assert errors, f"{path.name} passes {schema_of_example(path)} but should not"


@pytest.mark.parametrize("path", [*VALID, *INVALID], ids=ids([*VALID, *INVALID]))
def test_the_validator_the_other_tests_check_with_agrees_on_every_example(path: Path) -> None:
    """Every frame and body the service tests receive is checked by ``tests.support``'s
    compiled validator, not by the reference ``jsonschema`` used here: both must agree."""
    document = load(path)
    name = schema_of_example(path)
    compiled = support.validator(name).is_valid(document)
    assert compiled == validator(name).is_valid(document)
    assert compiled == (path in VALID)


@pytest.mark.parametrize("path", INVALID, ids=ids(INVALID))
def test_invalid_example_fails_the_model(path: Path) -> None:
    with pytest.raises(ValidationError):
        ADAPTERS[schema_of_example(path)].validate_python(load(path))


def valid_documents(schema: str) -> list[Any]:
    return [load(p) for p in VALID if schema_of_example(p) == schema]


def test_valid_examples_cover_every_message_type() -> None:
    for name in ("client-message.json", "server-message.json"):
        kinds = set(DOCUMENTS[name]["discriminator"]["mapping"])
        seen = {message["type"] for message in valid_documents(name)}
        assert kinds <= seen, f"{name}: no valid example of {sorted(kinds - seen)}"

    actions = [m["action"] for m in valid_documents("client-message.json") if m["type"] == "action"]
    assert any(isinstance(a, str) for a in actions), "an action in notation form"
    assert any(isinstance(a, dict) for a in actions), "an action in object form"

    server = valid_documents("server-message.json")
    results = [m for m in server if m["type"] == "result"]
    assert {m["status"] for m in results} == {"accepted", "rejected"}
    assert any(m.get("duplicate") for m in results), "a duplicate result"

    change = DOCUMENTS["server-message.json"]["$defs"]["Change"]
    event_kinds = set(change["properties"]["events"]["items"]["discriminator"]["mapping"])
    events = {e["type"] for m in server if m["type"] == "change" for e in m["events"]}
    assert event_kinds <= events, f"no change example with events {sorted(event_kinds - events)}"


def test_every_schema_has_a_valid_example() -> None:
    covered = {schema_of_example(p) for p in VALID}
    assert set(DOCUMENTS) <= covered, f"no valid example for {sorted(set(DOCUMENTS) - covered)}"


def test_message_schemas_have_invalid_examples() -> None:
    covered = {schema_of_example(p) for p in INVALID}
    assert {"client-message.json", "server-message.json", "public-state.json"} <= covered


# --------------------------------------------------------------------------- (d) AsyncAPI


def asyncapi() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(ASYNCAPI.read_text(encoding="utf-8"))
    return document


def walk(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{where}/{index}")


def pointer(document: Any, fragment: str) -> Any:
    node = document
    for part in fragment.lstrip("/").split("/") if fragment.strip("/") else []:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def test_asyncapi_is_version_3_with_a_ws_channel() -> None:
    document = asyncapi()
    assert str(document["asyncapi"]) == "3.0.0"
    addresses = {channel["address"] for channel in document["channels"].values()}
    assert "/ws" in addresses
    for name, operation in document["operations"].items():
        assert operation["action"] in {"send", "receive"}, name
        assert operation["channel"]["$ref"].startswith("#/channels/"), name


def test_asyncapi_refs_resolve() -> None:
    document = asyncapi()
    generated = set(generate())
    file_refs = 0
    for where, node in walk(document):
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        target, _, fragment = ref.partition("#")
        if not target:
            pointer(document, fragment)
            continue
        file_refs += 1
        path = (ASYNCAPI.parent / target).resolve()
        name = path.relative_to(SCHEMAS.resolve()).as_posix()
        assert path.is_file(), f"{where}: {ref} names a missing file"
        assert name in generated, f"{where}: {ref} is not a committed schema"
        pointer(json.loads(path.read_text(encoding="utf-8")), fragment)
    assert file_refs > 0


def message_schemas(document: dict[str, Any]) -> dict[str, str]:
    """Message name -> schema reference (``client-message.json#/$defs/HelloMessage``)."""
    refs = {}
    for name, message in document["components"]["messages"].items():
        payload = message["payload"]
        assert payload["schemaFormat"] == SCHEMA_FORMAT, name
        refs[name] = payload["schema"]["$ref"]
    return refs


def test_asyncapi_describes_every_message_both_ways() -> None:
    refs = set(message_schemas(asyncapi()).values())
    for name in ("client-message.json", "server-message.json"):
        members = {name + option["$ref"] for option in DOCUMENTS[name]["oneOf"]}
        assert members <= refs, f"AsyncAPI lacks {sorted(members - refs)}"


def test_asyncapi_examples_match_their_schemas() -> None:
    document = asyncapi()
    refs = message_schemas(document)
    base = DOCUMENTS["client-message.json"]["$id"].rpartition("/")[0] + "/"
    for name, message in document["components"]["messages"].items():
        check = Draft202012Validator({"$ref": base + refs[name]}, registry=REGISTRY)
        assert message.get("examples"), f"message {name} has no example"
        for example in message["examples"]:
            check.validate(example["payload"])
