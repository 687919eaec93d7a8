"""docker-compose.yml and the Dockerfile must refer to things that exist in the project.

No Docker engine runs here, so this reads them: every service's image or build,
command, environment variable and dependency is checked against the project.
"""

import re
from pathlib import Path

import pytest
import yaml
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
DOCKERFILE = (ROOT / "Dockerfile").read_text()
MAKEFILE = (ROOT / "Makefile").read_text()
SETTINGS_SOURCE = (ROOT / "config" / "settings.py").read_text()
SERVICES = COMPOSE["services"]
APP_SERVICES = [name for name, s in SERVICES.items() if s.get("build")]


def _settings_variables() -> set[str]:
    return set(re.findall(r'env_(?:str|bool|int|list)\("([A-Z_]+)"', SETTINGS_SOURCE)) | \
        set(re.findall(r'redis_url\("([A-Z_]+)"\)', SETTINGS_SOURCE)) | {"DATABASE_URL"}


def _command_exists(command: list[str]) -> None:
    program = command[0]
    if program == "uvicorn":
        module, _, attribute = command[1].partition(":")
        assert (module, attribute) == ("config.asgi", "application"), "the ASGI app serves pages and sockets"
        assert (ROOT / "config" / "asgi.py").exists()
        options = command[2:]
        assert "--lifespan" in options, command
        assert "--no-proxy-headers" in options, command
    elif program == "celery":
        assert command[1:3] == ["-A", "config"]
        assert command[3] in {"worker", "beat", "inspect"}
        assert (ROOT / "config" / "celery.py").exists()
    elif program == "python" and command[1] == "-c":
        assert "http://127.0.0.1:8000/healthz" in command[2], "an inline health probe must ask /healthz"
    elif program == "python":
        assert command[1] == "manage.py"
        assert command[2] in get_commands(), f"no management command {command[2]}"
    elif program == "redis-server" or program.startswith("pg_isready"):
        pass
    else:
        pytest.fail(f"unknown program {program} in {command}")


def test_every_service_has_an_image_or_build_and_a_known_image():
    for name, service in SERVICES.items():
        assert service.get("image") or service.get("build"), name
        if service.get("build"):
            assert service["build"] == "."
            assert (ROOT / "Dockerfile").exists()
    assert SERVICES["db"]["image"].startswith("postgres:")
    assert SERVICES["redis"]["image"].startswith("redis:")


def test_the_expected_processes_are_there():
    assert {"db", "redis", "migrate", "web", "worker", "beat"} <= set(SERVICES)


def test_commands_refer_to_real_modules_and_management_commands():
    for name in APP_SERVICES:
        _command_exists(SERVICES[name]["command"])
        health = SERVICES[name].get("healthcheck")
        if health:
            _command_exists(health["test"][1:])


def test_healthchecks_everywhere_but_the_one_off_migrate():
    for name, service in SERVICES.items():
        if name != "migrate":
            assert "healthcheck" in service, f"{name} has no health check"


def test_dependencies_exist_and_wait_for_health_or_migration():
    for name, service in SERVICES.items():
        for dependency, condition in (service.get("depends_on") or {}).items():
            assert dependency in SERVICES, f"{name} depends on unknown {dependency}"
            expected = "service_completed_successfully" if dependency == "migrate" else "service_healthy"
            assert condition["condition"] == expected
    for name in ("web", "worker", "beat"):
        assert "migrate" in SERVICES[name]["depends_on"]


def test_environment_variables_are_read_by_settings():
    known = _settings_variables()
    for name in APP_SERVICES:
        for variable in SERVICES[name]["environment"]:
            assert variable in known, f"{name} sets {variable}, which settings never read"
    assert SERVICES["web"]["environment"]["DATABASE_URL"].endswith("@db:5432/muster")
    assert SERVICES["web"]["environment"]["REDIS_URL"].startswith("redis://redis:")


def test_volumes_for_database_and_media_are_declared():
    assert {"pgdata", "media"} <= set(COMPOSE["volumes"])
    assert "pgdata:/var/lib/postgresql/data" in SERVICES["db"]["volumes"]
    for name in APP_SERVICES:
        assert any(v.startswith("media:") for v in SERVICES[name]["volumes"])


def test_dockerfile_installs_the_locked_dependencies_and_its_variables_are_real():
    assert "FROM python:3.11" in DOCKERFILE
    assert "COPY pyproject.toml uv.lock" in DOCKERFILE
    assert "uv sync --locked --no-install-project" in DOCKERFILE
    assert "--extra dev" not in DOCKERFILE, "the image carries the runtime dependencies only"
    uv_pin = re.search(r'uv==([0-9.]+)', DOCKERFILE).group(1)
    assert uv_pin == re.search(r"^UV_VERSION\s*:=\s*(\S+)", MAKEFILE, flags=re.M).group(1), "the same uv as make"
    assert "collectstatic" in DOCKERFILE
    for variable in re.findall(r"^\s+([A-Z_]+)=", DOCKERFILE, flags=re.M):
        assert variable in _settings_variables() | {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PIP_NO_CACHE_DIR",
                                                    "DJANGO_SETTINGS_MODULE", "UV_PROJECT_ENVIRONMENT",
                                                    "UV_COMPILE_BYTECODE", "UV_NO_CACHE"}, variable
    cmd = re.search(r'^CMD (\[.*\])', DOCKERFILE, flags=re.M).group(1)
    _command_exists(yaml.safe_load(cmd))
    assert "/healthz" in DOCKERFILE


@pytest.mark.django_db
def test_healthz_answers_without_a_known_host(client, settings):
    settings.ALLOWED_HOSTS = ["muster.example.org"]
    response = client.get("/healthz", HTTP_HOST="127.0.0.1")
    assert response.status_code == 200
    assert response.content == b"ok"


@pytest.mark.django_db
def test_beat_health_fails_until_beat_has_sent_something():
    from django.core.management import call_command
    from django.core.management.base import CommandError
    from django.utils import timezone
    from django_celery_beat.models import PeriodicTask

    with pytest.raises(CommandError, match="no scheduled task"):
        call_command("beat_health")
    PeriodicTask.objects.filter(name="Worker heartbeat").update(last_run_at=timezone.now())
    call_command("beat_health")


def test_the_web_server_is_the_asgi_one_everywhere_with_the_same_options():
    """docker-compose, the Dockerfile and `make run` (runstack) serve the sockets the same way."""
    from campaign.management.commands.runstack import web_options

    compose = SERVICES["web"]["command"]
    dockerfile = yaml.safe_load(re.search(r'^CMD (\[.*\])', DOCKERFILE, flags=re.M).group(1))
    assert compose == dockerfile
    assert compose[1:] == web_options("0.0.0.0", "8000", workers=3)  # noqa: S104 - inside the container
