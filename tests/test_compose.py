"""The container files, checked without a container engine.

docker-compose.yml must describe a working stack: Redis with persistence and a health
check, and the service built from this repository, pointed at that Redis, published on
the port the README gives, healthy only when /readyz is, and configured with real
settings only. The Dockerfile must run the service the way `make run` does.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from service.config import Settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
README = ROOT / "README.md"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return document


def words(command: Any) -> list[str]:
    """A compose command or healthcheck test, as a list of words."""
    if isinstance(command, str):
        return shlex.split(command)
    return [str(word) for word in command]


def environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) for item in env)
    return {str(key): str(value) for key, value in env.items()}


def published_ports(service: dict[str, Any]) -> list[tuple[int, int]]:
    """(host port, container port) pairs, from short or long syntax."""
    pairs = []
    for entry in service.get("ports", []):
        if isinstance(entry, dict):
            pairs.append((int(entry["published"]), int(entry["target"])))
        else:
            *_, host, container = str(entry).split(":")
            pairs.append((int(host), int(container.split("/")[0])))
    return pairs


def test_compose_has_both_services(compose: dict[str, Any]) -> None:
    assert {"redis", "service"} <= set(compose["services"])


def test_redis_persists_with_append_only_file(compose: dict[str, Any]) -> None:
    redis = compose["services"]["redis"]
    assert str(redis["image"]).startswith("redis:7")
    command = words(redis["command"])
    assert "--appendonly" in command
    assert command[command.index("--appendonly") + 1] == "yes"
    volumes = [str(v) for v in redis.get("volumes", [])]
    named = [v.split(":")[0] for v in volumes if v.split(":")[1:2] == ["/data"]]
    assert named, "Redis keeps its data in /data: mount a volume there"
    assert named[0] in (compose.get("volumes") or {}), "declare the data volume"


def test_both_services_have_health_checks(compose: dict[str, Any]) -> None:
    redis = words(compose["services"]["redis"]["healthcheck"]["test"])
    assert "redis-cli" in redis and "ping" in redis
    service = " ".join(words(compose["services"]["service"]["healthcheck"]["test"]))
    assert "urllib" in service and "/readyz" in service


def test_service_waits_for_a_healthy_redis(compose: dict[str, Any]) -> None:
    service = compose["services"]["service"]
    build = service["build"]
    assert (build if isinstance(build, str) else build["context"]) == "."
    assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def test_service_store_url_points_at_the_redis_service(compose: dict[str, Any]) -> None:
    env = environment(compose["services"]["service"])
    url = urlsplit(env["STORE_URL"])
    assert url.scheme == "redis"
    assert url.hostname == "redis" and url.hostname in compose["services"]
    assert (url.port or 6379) == 6379
    assert env["HOST"] == "0.0.0.0"


def test_service_is_published_on_the_readme_port(compose: dict[str, Any]) -> None:
    service = compose["services"]["service"]
    env = environment(service)
    port = int(env.get("PORT", Settings.model_fields["port"].default))
    ports = published_ports(service)
    assert ports, "publish the service's port"
    host_port, container_port = ports[0]
    assert container_port == port
    assert f"http://127.0.0.1:{host_port}" in README.read_text(encoding="utf-8")
    assert f"127.0.0.1:{port}/readyz" in " ".join(words(service["healthcheck"]["test"]))


def test_service_environment_names_only_settings(compose: dict[str, Any]) -> None:
    fields = set(Settings.model_fields)
    for name in environment(compose["services"]["service"]):
        assert name.lower() in fields, f"{name} is not a setting (see service/config.py)"


def test_dockerfile_runs_the_service() -> None:
    dockerfile = DOCKERFILE.read_text(encoding="utf-8")
    assert re.search(r"^FROM python:3\.11-slim\b", dockerfile, re.M)
    assert 'CMD ["python", "-m", "service"]' in dockerfile
    instructions = dockerfile.replace("\\\n", " ")  # continuation lines joined
    assert re.search(r"^RUN .*\bpip install \.(\s|$)", instructions, re.M)
    # The build compiles the solver's core where it finds setup.py and a C compiler.
    assert re.search(r"^COPY .*\bsetup\.py\b", dockerfile, re.M)
    assert re.search(r"^RUN .*\bgcc\b.*\bpip install \.", instructions, re.M)
    assert re.search(r"\bHOST=0\.0\.0\.0\b", dockerfile)
    port = Settings.model_fields["port"].default
    assert re.search(rf"^EXPOSE {port}$", dockerfile, re.M)


def test_dockerignore_keeps_what_the_dockerfile_copies() -> None:
    ignored = [
        line.strip()
        for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    excluded = {p for p in ignored if not p.startswith("!")}
    kept = {p[1:] for p in ignored if p.startswith("!")}
    copies = re.findall(r"^COPY (.+) \S+$", DOCKERFILE.read_text(encoding="utf-8"), re.M)
    for source in (s for line in copies for s in line.split()):
        assert (ROOT / source).exists(), f"COPY {source}: no such file"
        parts = Path(source).parts
        prefixes = {"/".join(parts[: i + 1]) for i in range(len(parts))}
        blocked = prefixes & excluded
        star = {f"{'/'.join(parts[:i])}/*" for i in range(1, len(parts))} & excluded
        assert not blocked, f".dockerignore excludes {source}"
        assert not star or source in kept, f".dockerignore excludes {source}"
