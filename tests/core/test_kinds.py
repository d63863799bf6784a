"""The registry of finding kinds: English values for machines, one Spanish label for authors."""

from __future__ import annotations

import re

from docverify.core.findings import Finding
from docverify.core.kinds import LABELS, Kind

KEBAB = re.compile(r"[a-z]+(-[a-z]+)*")


def test_every_kind_has_one_spanish_label() -> None:
    missing = [k.name for k in Kind if k not in LABELS]
    assert not missing, f"tipos sin nombre en español en core/kinds.py: {missing}"
    assert set(LABELS) == set(Kind)
    labels = list(LABELS.values())
    assert len(set(labels)) == len(labels), "dos tipos con el mismo nombre en español"
    assert all(KEBAB.fullmatch(label) for label in labels), labels


def test_values_are_english_kebab_case() -> None:
    assert all(KEBAB.fullmatch(kind.value) for kind in Kind), list(Kind)
    assert Kind.MISSING_RECORDING == "missing-recording"
    assert Kind.MISSING_RECORDING.label == "grabacion-ausente"


def test_authors_read_the_label_machines_the_value() -> None:
    finding = Finding(Kind.STALE_SOURCE, "caducó.", "docs/a.md", 3, "revísala.")
    assert finding.format().startswith("docs/a.md:3: [fuente-caducada] caducó.")
    data = finding.to_json()
    assert data["kind"] == "stale-source" and data["label"] == "fuente-caducada"


def test_a_kind_read_back_as_text_is_the_member() -> None:
    finding = Finding("divergence", "m", "p", 1, "f")  # type: ignore[arg-type]
    assert finding.kind is Kind.DIVERGENCE
