"""sources.model: each malformed `sources:` entry is one finding, exact in kind, text and line."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import Project
from docverify.core.findings import Finding
from docverify.core.kinds import Kind
from docverify.parsing import frontmatter
from docverify.parsing.pages import Page, read_page
from docverify.sources import model

HEAD = '---\ntitle: "Guía"\n'  # the page's lines 1-2; `sources:` is line 3
FIX_SHAPE = "escribe la fuente con title, reference y verified."


def read(project: Project, body: str) -> tuple[list[model.Source], list[Finding]]:
    """`read_sources` of a page whose front matter is HEAD + `body`."""
    page = project.page("guia.md", HEAD + body + "---\n\nTexto.\n")
    cfg = project.config
    return model.read_sources(cfg, read_page(cfg, page))


def test_no_sources_key_is_no_sources_and_no_findings(project: Project) -> None:
    assert read(project, "") == ([], [])


def test_sources_that_is_not_a_list_is_one_finding_on_its_line(project: Project) -> None:
    assert read(project, "sources: una\n") == (
        [],
        [
            Finding(
                Kind.MALFORMED_SOURCES,
                "«sources» debe ser una lista de fuentes.",
                "docs/guia.md",
                3,
                "escribe cada fuente como «- title: …, reference: …, verified: …».",
            )
        ],
    )


def test_a_well_formed_source_keeps_every_value_and_line(project: Project) -> None:
    [source], findings = read(
        project,
        "sources:\n"
        '  - title: "T"\n'
        '    reference: "R"\n'
        '    verified: "2026-09-23"\n'
        '    url: "http://ejemplo.org"\n'
        "    review_days: 1\n"
        '    owner: "@ana"\n',
    )
    assert findings == []
    # page: the page's path under docs/ (Page.rel), not the project-relative one of findings
    assert (source.page, source.line, source.title, source.reference) == (
        "guia.md",
        4,
        "T",
        "R",
    )
    assert source.verified == dt.date(2026, 9, 23)
    assert (source.url, source.review_days, source.owner) == ("http://ejemplo.org", 1, "@ana")
    assert source.fingerprint is None
    assert source.key_lines == {
        "title": 4,
        "reference": 5,
        "verified": 6,
        "url": 7,
        "review_days": 8,
        "owner": 9,
    }
    assert source.label == "«R» («T»)"


def test_an_entry_that_is_not_a_mapping_is_named_by_its_number(project: Project) -> None:
    sources, findings = read(
        project,
        'sources:\n  - title: "T"\n    reference: "R"\n    verified: "2026-09-23"\n  - suelta\n',
    )
    assert len(sources) == 1
    assert findings == [
        Finding(
            Kind.MALFORMED_SOURCE,
            "fuente «n.º 2»: no es un mapa clave: valor.",
            "docs/guia.md",
            3,  # a plain string has no line of its own: the line of `sources:`
            FIX_SHAPE,
        )
    ]


@pytest.mark.parametrize(
    ("keys", "label", "missing"),
    [
        ('title: "T"', "T", "reference"),
        ('reference: "R"', "R", "title"),
        ('title: "T"\n    reference: ""', "T", "reference"),
        ('title: ""\n    reference: "R"', "R", "title"),
        ("verified: 2026-09-23", "n.º 1", "title, reference"),
    ],
)
def test_missing_title_or_reference_is_incomplete(
    project: Project, keys: str, label: str, missing: str
) -> None:
    sources, findings = read(project, f"sources:\n  - {keys}\n")
    assert sources == []
    assert findings == [
        Finding(
            Kind.INCOMPLETE_SOURCE,
            f"fuente «{label}»: falta {missing}.",
            "docs/guia.md",
            4,
            f"añade {missing} a la fuente.",
        )
    ]


def test_unknown_keys_are_listed_sorted_and_the_source_still_counts(project: Project) -> None:
    sources, findings = read(
        project,
        'sources:\n  - title: "T"\n    reference: "R"\n    verified: "2026-09-23"\n'
        "    zeta: 1\n    alfa: 2\n",
    )
    assert [s.reference for s in sources] == ["R"]
    assert findings == [
        Finding(
            Kind.UNKNOWN_SOURCE_KEY,
            "fuente «R»: claves desconocidas: alfa, zeta.",
            "docs/guia.md",
            4,
            "usa solo title, reference, verified, url, review_days, owner, fingerprint.",
        )
    ]


def test_a_bad_date_is_reported_on_the_verified_line(project: Project) -> None:
    sources, [finding] = read(
        project, 'sources:\n  - title: "T"\n    reference: "R"\n    verified: "ayer"\n'
    )
    assert sources == []
    assert (finding.kind, finding.path, finding.line) == (Kind.INVALID_DATE, "docs/guia.md", 6)
    assert finding.message.startswith("fuente «R»: ") and finding.message.endswith(".")
    assert "ayer" in finding.message and not finding.message.endswith("..")
    assert finding.fix == (
        'escribe verified: "AAAA-MM-DD" con la fecha en que comprobaste la fuente.'
    )


GOOD = 'sources:\n  - title: "T"\n    reference: "R"\n    verified: "2026-09-23"\n'


@pytest.mark.parametrize(
    ("extra", "message", "fix"),
    [
        (
            "url: ftp://x",
            "url «ftp://x» no es una dirección http(s).",
            'escribe url: "https://…".',
        ),
        (
            "url: 7",
            "url «7» no es una dirección http(s).",
            'escribe url: "https://…".',
        ),
        *(
            (
                f"review_days: {raw}",
                f"review_days «{shown}» debe ser un número entero de días > 0.",
                "escribe review_days: 90 (o quítalo para usar el máximo del proyecto).",
            )
            for raw, shown in [("0", "0"), ("-3", "-3"), ("true", "True"), ("2.5", "2.5")]
        ),
        ('owner: "  "', "owner debe ser un nombre o usuario.", 'escribe owner: "@usuario".'),
        ("owner: 5", "owner debe ser un nombre o usuario.", 'escribe owner: "@usuario".'),
    ],
)
def test_a_bad_optional_key_is_reported_on_its_own_line(
    project: Project, extra: str, message: str, fix: str
) -> None:
    sources, findings = read(project, f"{GOOD}    {extra}\n")
    assert sources == []
    assert findings == [
        Finding(Kind.MALFORMED_SOURCE, f"fuente «R»: {message}", "docs/guia.md", 7, fix)
    ]


def test_https_url_and_one_day_are_accepted(project: Project) -> None:
    [source], findings = read(project, f'{GOOD}    url: "https://x.org"\n    review_days: 1\n')
    assert findings == [] and (source.url, source.review_days) == ("https://x.org", 1)


def test_a_bad_fingerprint_says_why_and_how_to_compute_it(project: Project) -> None:
    sources, findings = read(project, f"{GOOD}    fingerprint: torch\n")
    assert sources == []
    assert findings == [
        Finding(
            Kind.MALFORMED_SOURCE,
            "fuente «R»: «fingerprint» debe ser un mapa con package, version, sha256 y file u "
            "object.",
            "docs/guia.md",
            7,
            "escribe package, object (o file) y ejecuta docverify sources --reverify "
            "REFERENCIA para calcular version y sha256.",
        )
    ]


def test_a_good_fingerprint_keeps_its_line(project: Project) -> None:
    [source], findings = read(
        project,
        f"{GOOD}    fingerprint:\n      package: torch\n      object: torch.autograd.backward\n",
    )
    assert findings == []
    fp = source.fingerprint
    assert fp is not None and (fp.package, fp.kind, fp.target) == (
        "torch",
        "object",
        "torch.autograd.backward",
    )
    assert fp.line == 7


def test_a_source_without_verified_is_an_invalid_date_on_its_own_line(project: Project) -> None:
    sources, [finding] = read(project, 'sources:\n  - title: "T"\n    reference: "R"\n')
    assert sources == []
    assert (finding.kind, finding.path, finding.line) == (Kind.INVALID_DATE, "docs/guia.md", 4)


def plain_page(project: Project, entries: list[object]) -> Page:
    """A page built in-process whose `sources:` (at line 5) holds plain dicts: no line of their
    own nor of their keys, as when another reader than the YAML one gives the front matter."""
    meta = frontmatter.LineDict(sources=entries)
    meta.key_lines = {"sources": 5}
    path = project.root / "docs" / "guia.md"
    return Page(path=path, rel="guia.md", meta=meta, body="", body_line=1)


def test_plain_mappings_take_the_line_of_sources(project: Project) -> None:
    good = {"title": "T", "reference": "R", "verified": "2026-09-23"}
    entries: list[object] = [
        good,
        {"title": "T2", "reference": "R2", "verified": "ayer"},
        {**good, "reference": "R3", "owner": ""},
        {**good, "reference": "R4", "fingerprint": 1},
        {**good, "reference": "R5", "fingerprint": {"package": "torch", "object": "torch.mm"}},
    ]
    sources, findings = model.read_sources(project.config, plain_page(project, entries))
    assert [(s.reference, s.line, s.key_lines) for s in sources] == [("R", 5, {}), ("R5", 5, {})]
    fp = sources[1].fingerprint
    assert fp is not None and (fp.target, fp.line) == ("torch.mm", 5)
    assert [(f.kind, f.line, f.message.split(":")[0]) for f in findings] == [
        (Kind.INVALID_DATE, 5, "fuente «R2»"),
        (Kind.MALFORMED_SOURCE, 5, "fuente «R3»"),
        (Kind.MALFORMED_SOURCE, 5, "fuente «R4»"),
    ]
