"""The wheel is enough to run the service with its web front end.

The wheel is built from the files the Dockerfile copies, installed in a fresh virtual
environment outside the source tree, and its console script ``solitaire-service`` is
asked for ``/``: the web client must come from the installed package, not from a
checkout next to it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support import free_port

ROOT = Path(__file__).resolve().parent.parent
# What the wheel is built from (as in the Dockerfile).
SOURCES = ["pyproject.toml", "README.md", "service", "clients/web", "clients/js/src"]


def build_wheel(workdir: Path) -> Path:
    source = workdir / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, source / name)
    wheels = workdir / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("*.whl")
    return wheel


def install(wheel: Path, workdir: Path) -> Path:
    """A new venv with the wheel; its dependencies are borrowed from this environment's
    site-packages (a path entry, whose own .pth files, such as an editable install of
    this checkout, are not run), so the test needs no package index."""
    venv = workdir / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(purelib, "borrowed-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    # The new venv's own interpreter runs pip (borrowed too), so that the console script
    # it writes starts that interpreter.
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--no-compile", str(wheel)],
        check=True,
        capture_output=True,
    )
    return venv


def fetch(url: str, service: subprocess.Popen[bytes], deadline: float) -> tuple[int, str, bytes]:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status, response.headers["content-type"], response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers["content-type"], error.read()
        except (urllib.error.URLError, ConnectionError):
            assert service.poll() is None, "the service stopped"
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.mark.slow
def test_the_installed_console_script_serves_the_web_front_end(tmp_path: Path) -> None:
    venv = install(build_wheel(tmp_path), tmp_path)
    script = venv / "bin" / "solitaire-service"
    assert script.exists()
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "STORE_URL")},
        "PORT": str(port),
        "LOG_LEVEL": "warning",
        "NO_PROXY": "*",
    }
    # Run from an empty directory: nothing of the source tree is importable from there.
    service = subprocess.Popen(
        [str(script)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        status, content_type, body = fetch(base + "/", service, time.monotonic() + 30)
        assert status == 200 and content_type.startswith("text/html"), (status, content_type)
        assert body == (ROOT / "clients" / "web" / "index.html").read_bytes()
        status, content_type, body = fetch(base + "/app.js", service, time.monotonic() + 5)
        assert status == 200 and body == (ROOT / "clients" / "web" / "app.js").read_bytes()
        # The JavaScript SDK the page imports, its subfolder included.
        sdk_source = ROOT / "clients" / "js" / "src"
        for name in ("index.js", "rest/games.js"):
            status, content_type, body = fetch(f"{base}/sdk/{name}", service, time.monotonic() + 5)
            assert status == 200 and body == (sdk_source / name).read_bytes(), name
            assert "javascript" in content_type, content_type
        status, _, _ = fetch(base + "/healthz", service, time.monotonic() + 5)
        assert status == 200
        import_check = subprocess.run(
            [
                venv / "bin" / "python",
                "-c",
                "import service.app; print(service.app.WEB_CLIENT, service.app.SDK)",
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        web_dir, sdk_dir = import_check.stdout.split()
        assert web_dir.startswith(str(venv)), "the web client must come from the wheel"
        assert sdk_dir.startswith(str(venv)), "the SDK must come from the wheel"
    finally:
        service.terminate()
        _, errors = service.communicate(timeout=10)
    assert b"Traceback" not in errors, errors.decode(errors="replace")[-2000:]


def test_every_package_of_the_service_goes_into_the_wheel() -> None:
    """setuptools ships the packages pyproject.toml lists, and no others: a new package
    missing from the list would be missing from the wheel and the image."""
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "service").rglob("__init__.py")
    }
    assert on_disk - listed == set()
