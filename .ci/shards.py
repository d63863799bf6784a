#!/usr/bin/env python3
"""Into how many shards the verification of docs.yml is split: its job `partes`.

Reads the repository variable DOCS_SHARDS (a whole number from 1 to 16; unset or blank: 1) and
writes two step outputs to $GITHUB_OUTPUT:

- total: the number of shards, N;
- shards: the JSON list [1, ..., N], the matrix of the cpu and gpu jobs (each runs
  `docverify check --shard I/N` and uploads its report as docverify-<runner>-I).

A malformed value stops the run here, with a Spanish message naming what is wrong: the cpu and
gpu jobs (and so the site) need the number. It is read in a job of its own, not in `config`
(DOCS_GPU_RUNNER): a malformed DOCS_GPU_RUNNER fails `config` and the cpu check still runs,
which it could not if the cpu job waited for `config`. Python's standard library only: it runs
on the runner image's python3 before anything is installed. Tested by
tests/workflows/test_shard_matrix.py.
"""

from __future__ import annotations

import json
import re
import sys

import step_outputs

VARIABLE = "DOCS_SHARDS"
MAXIMUM = 16  # more shards only pay start-up and installation again (docs-dev/repartir.md)


class Malformed(ValueError):
    """The variable is set but is not a number of shards this workflow accepts."""


def count(raw: str) -> int:
    """The number of shards `raw` asks for; 1 when the variable is unset or blank."""
    text = raw.strip()
    if not text:
        return 1
    if not re.fullmatch(r"[0-9]+", text):
        shown = json.dumps(text, ensure_ascii=False)
        raise Malformed(f"{shown} no es un número entero sin signo")
    value = int(text)
    if not 1 <= value <= MAXIMUM:
        raise Malformed(f"{value} está fuera del intervalo de 1 a {MAXIMUM}")
    return value


def decide(env: dict[str, str]) -> tuple[dict[str, str], str]:
    """The step outputs and the line to show in the log; Malformed for a bad value."""
    total = count(env.get(VARIABLE, ""))
    shards = json.dumps(list(range(1, total + 1)), separators=(",", ":"))
    if total == 1:
        line = f"Una sola parte ({VARIABLE} sin definir o 1): cpu y gpu verifican todo."
    else:
        line = f"{total} partes ({VARIABLE}): cada trabajo cpu y gpu verifica una, de 1 a {total}."
    return {"total": str(total), "shards": shards}, line


def main() -> int:
    return step_outputs.run(
        decide,
        VARIABLE,
        Malformed,
        "Debe ser el número de partes en que se reparte la verificación, un entero de 1 a "
        f"{MAXIMUM} (p. ej. 2). Corrígela en Settings → Secrets and variables → Actions → "
        "Variables, o bórrala para verificar en una sola parte.",
    )


if __name__ == "__main__":
    sys.exit(main())
