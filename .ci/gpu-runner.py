#!/usr/bin/env python3
"""Which GPU runner, if any, this workflow run uses: the first job of docs.yml and weekly.yml.

Reads the repository variable DOCS_GPU_RUNNER (the gpu job's `runs-on` labels as JSON: a string
such as "gpu-large" for a GitHub-hosted GPU runner, or an array of strings such as
["self-hosted","linux","x64","gpu"]) and writes two step outputs to $GITHUB_OUTPUT:

- gpu: "true" (the gpu job runs, on `runs-on`), "false" (no GPU runner is configured: the gpu job
  is skipped, not queued, and `site` builds the CPU-verified site) or "fork" (a pull request from a
  fork: the gpu job never runs its code, whatever the variable says, and `site` is not built);
- runs-on: the labels as compact JSON ([] when the gpu job does not run).

A malformed value stops the run here, with a Spanish message naming what is wrong. Python's
standard library only: it runs on the runner image's python3 before anything is installed.
Tested by tests/workflows/test_gpu_runner.py.
"""

from __future__ import annotations

import json
import sys

import step_outputs

VARIABLE = "DOCS_GPU_RUNNER"
EXAMPLES = '["self-hosted","linux","x64","gpu"] (runner propio) o "nombre-del-runner" (de GitHub)'


class Malformed(ValueError):
    """The variable is set but is not a `runs-on` value this workflow accepts."""


def labels(raw: str) -> str | list[str] | None:
    """The `runs-on` value that `raw` holds; None when the variable is unset or blank."""
    text = raw.strip()
    if not text:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise Malformed(f"no es JSON válido ({error.msg}, carácter {error.pos + 1})") from None
    if isinstance(value, str):
        if not value.strip():
            raise Malformed("es un texto JSON vacío")
        return value
    if isinstance(value, list):
        if not value:
            raise Malformed("es una lista vacía: un trabajo necesita al menos una etiqueta")
        for position, item in enumerate(value, 1):
            if not isinstance(item, str) or not item.strip():
                raise Malformed(
                    f"su elemento {position} no es un texto con una etiqueta "
                    f"({json.dumps(item, ensure_ascii=False)})"
                )
        return value
    kind = {bool: "un booleano", int: "un número", float: "un número", dict: "un objeto"}.get(
        type(value), "null"
    )
    raise Malformed(f"es {kind}, no un texto ni una lista de textos")


def decide(env: dict[str, str]) -> tuple[dict[str, str], str]:
    """The step outputs and the line to show in the log (an annotation); Malformed if the
    variable is set to something `runs-on` cannot take."""
    event = env.get("EVENT_NAME", "")
    head = env.get("HEAD_REPOSITORY", "")
    if event == "pull_request" and head != env.get("REPOSITORY", ""):
        return (
            {"gpu": "fork", "runs-on": "[]"},
            "::notice title=Pull request desde un fork::el trabajo gpu no ejecuta código de un "
            "fork (puerta contra forks) y el sitio no se construye en esta ejecución.",
        )
    value = labels(env.get(VARIABLE, ""))
    if value is None:
        return (
            {"gpu": "false", "runs-on": "[]"},
            f"::notice title=Sin runner GPU::la variable {VARIABLE} no está definida: el trabajo "
            "gpu no se ejecuta y el sitio se construye y publica verificado solo en CPU.",
        )
    compact = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return {"gpu": "true", "runs-on": compact}, f"Runner GPU ({VARIABLE}): {compact}"


def main() -> int:
    return step_outputs.run(
        decide,
        VARIABLE,
        Malformed,
        "Debe ser JSON: un texto o una lista de textos con las etiquetas de runs-on del runner "
        f"GPU, p. ej. {EXAMPLES}. Corrígela en Settings → Secrets and variables → Actions → "
        "Variables, o bórrala para publicar el sitio verificado solo en CPU.",
    )


if __name__ == "__main__":
    sys.exit(main())
