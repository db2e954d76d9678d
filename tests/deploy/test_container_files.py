"""The Dockerfile and compose.yaml say what docs/deploy.md promises (no container engine runs here).

``make lint`` runs hadolint on the Dockerfile; these tests read both files and check what a person
deploying would notice: a pinned base image, dependencies installed before the source is copied (a code
change does not reinstall them), every package copied, a non-root user, a health check that exists, and
a compose file whose bot waits for a healthy PostgreSQL that keeps its data in a volume.
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    text = re.sub(r"\\\n", " ", "\n".join(x for x in text.splitlines() if not x.lstrip().startswith("#")))
    out = []
    for line in text.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_base_image_is_an_exact_python_release_the_project_supports():
    (base,) = [args for word, args in _instructions() if word == "FROM"]
    m = re.fullmatch(r"python:(3)\.(\d+)\.(\d+)-slim-(bookworm|trixie)", base)
    assert m, f"FROM {base}: pin an exact release such as python:3.11.11-slim-bookworm"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    minimum = re.search(r">=\s*3\.(\d+)", project["requires-python"])
    assert minimum and int(m.group(2)) >= int(minimum.group(1))


def test_dependencies_are_installed_before_any_source_is_copied():
    steps = _instructions()
    copies = [(i, args) for i, (word, args) in enumerate(steps) if word == "COPY"]
    first_source = min(i for i, args in copies if not args.startswith("pyproject.toml"))
    dep_install = [
        i for i, (word, args) in enumerate(steps) if word == "RUN" and "-r /tmp/requirements.txt" in args
    ]
    assert dep_install and dep_install[0] < first_source
    assert copies[0][1].split()[0] == "pyproject.toml" and copies[0][0] < dep_install[0]
    final = [args for word, args in steps[first_source:] if word == "RUN" and "pip install" in args]
    assert final and all("--no-deps" in args for args in final), (
        "the source layer must not fetch dependencies"
    )


def test_every_package_of_the_project_is_copied_into_the_image():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = {p.rstrip("*") for p in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = {args.split()[0] for word, args in _instructions() if word == "COPY"}
    assert packages <= copied, packages - copied


def test_the_bot_runs_as_a_numeric_non_root_user_with_a_health_check_that_exists():
    steps = _instructions()
    users = [args for word, args in steps if word == "USER"]
    assert users and re.fullmatch(r"[1-9]\d*(:[1-9]\d*)?", users[-1])
    (health,) = [args for word, args in steps if word == "HEALTHCHECK"]
    module = re.search(r'"python", "-m", "([\w.]+)"', health)
    assert module and importlib.util.find_spec(module.group(1)) is not None
    (entry,) = [args for word, args in steps if word == "ENTRYPOINT"]
    assert entry == '["python", "-m", "bot"]' and importlib.util.find_spec("bot.__main__") is not None


def test_compose_runs_the_bot_after_a_healthy_postgresql_with_its_data_in_a_volume(compose):
    services = compose["services"]
    assert set(services) == {"db", "bot"}
    db, bot = services["db"], services["bot"]
    assert re.fullmatch(r"postgres:\d+(\.\d+)?-\w+", db["image"]), "pin the PostgreSQL release"
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    mounts = [v.split(":") for v in db["volumes"]]
    assert ["pgdata", "/var/lib/postgresql/data"] in mounts and "pgdata" in compose["volumes"]
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert (
        bot["build"] == "."
        and "python" in bot["healthcheck"]["test"]
        and "bot.boot.health" in bot["healthcheck"]["test"]
    )
    env = db["environment"]
    url = bot["environment"]["DATABASE_URL"]
    assert url.startswith(f"postgresql+asyncpg://{env['POSTGRES_USER']}:") and url.endswith(
        f"@db:5432/{env['POSTGRES_DB']}"
    )
    assert "?" in bot["environment"]["TELEGRAM_BOT_TOKEN"], "a missing token must stop compose with a message"


def test_docs_deploy_uses_the_compose_file_of_the_repository():
    deploy = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert "compose.yaml" in deploy and "\nservices:\n" not in deploy, (
        "docs/deploy.md must point at compose.yaml, not copy it"
    )
