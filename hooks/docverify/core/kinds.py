"""Finding kinds: one registry of every kind of problem the engine reports.

A kind's value is an English internal value: it is what `Finding.kind` holds and what machine
formats carry (the CI report's JSON). Authors read its Spanish name, `Kind.label`: in
`Finding.format()` («[grabacion-ausente]»), in the build's summary line and in the page's boxes.
Renaming a label never changes a format on disk or in CI.
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    # The project's configuration ([tool.docverify] of pyproject.toml) and commands that refuse
    CONFIG = "config"
    REFUSED = "refused"
    # Pages and their blocks (parsing/)
    FRONT_MATTER = "front-matter"
    UNKNOWN_META_KEY = "unknown-front-matter-key"  # a key nothing reads (site/meta_keys.py)
    INVALID_OPTION = "invalid-option"
    UNVERIFIED_LANGUAGE = "unverified-language"
    UNKNOWN_OPTION = "unknown-option"
    MISSING_ID = "missing-id"
    INVALID_ID = "invalid-id"
    MISSING_REASON = "missing-reason"
    DUPLICATE_ID = "duplicate-id"
    MIXED_SNIPPET = "mixed-snippet"
    MISSING_SNIPPET = "missing-snippet"
    TAB_IN_CODE = "tab-in-code"
    # Articles and the site (site/)
    MISSING_PART = "missing-part"
    MALFORMED_PART = "malformed-part"
    MALFORMED_FAQ = "malformed-faq"
    WRONG_TYPE = "wrong-type"
    SECTION_ORDER = "section-order"
    TEMPLATE_TEXT = "template-text"
    SEED_WITHOUT_REPLACEMENT = "seed-without-replacement"
    DANGLING_NAV_ENTRY = "dangling-nav-entry"
    PAGE_NOT_IN_NAV = "page-not-in-nav"
    UNUSED_SNIPPET = "unused-snippet"
    RESERVED_PAGE = "reserved-page"
    MISSING_SEED = "missing-seed"
    MALFORMED_ORIGIN = "malformed-origin"  # the origin: of quoted code (parsing/origin.py)
    MALFORMED_DATA_FILES = "malformed-data-files"  # a page's data_files: (parsing/data_files.py)
    # The glossary (site/glossary.py)
    MALFORMED_GLOSSARY = "malformed-glossary"
    AVOIDED_PHRASE = "avoided-phrase"
    CODE_ONLY_WORD = "code-only-word"
    BUILD_WORD = "build-word"
    # A name the article's notebook would take from another block (site/notebook_names.py)
    NOTEBOOK_NAME_CLASH = "notebook-name-clash"
    # Sources (sources/)
    MALFORMED_SOURCES = "malformed-sources"
    MALFORMED_SOURCE = "malformed-source"
    UNKNOWN_SOURCE_KEY = "unknown-source-key"
    INCOMPLETE_SOURCE = "incomplete-source"
    INVALID_DATE = "invalid-date"
    SOURCES_POLICY = "sources-policy"
    FUTURE_DATE = "future-date"
    STALE_SOURCE = "stale-source"
    SOURCE_REVIEW_DUE = "source-review-due"
    INCOMPLETE_FINGERPRINT = "incomplete-fingerprint"
    CHANGED_SOURCE = "changed-source"
    SAME_FINGERPRINT = "same-fingerprint"
    # Running and comparing (verifying/)
    EXECUTION_DISABLED = "execution-disabled"
    MISSING_RECORDING = "missing-recording"
    NO_RESULT = "no-result"
    EXPECTATION = "expectation"
    EXECUTION_FAILURE = "execution-failure"
    UNEXPECTED_EXCEPTION = "unexpected-exception"
    MISSING_EXCEPTION = "missing-exception"
    UNREADABLE_GRAPH = "unreadable-graph"
    UNREADABLE_CURVE = "unreadable-curve"
    VOLATILE_DIVERGENCE = "volatile-divergence"
    DIVERGENCE = "divergence"
    ORPHAN_RECORDING = "orphan-recording"
    STOPPED_PROCESSES = "stopped-processes"
    DEVICE_MARKS = "device-marks"
    UNSTABLE_OUTPUT = "unstable-output"  # record's second run differs (verifying/stability.py)
    # Another runner's report (report/gpu_report.py)
    INVALID_REPORT = "invalid-report"
    WRONG_REPORT_RUNNER = "wrong-report-runner"
    STALE_REPORT = "stale-report"
    INCOMPLETE_REPORT = "incomplete-report"
    REPORT_DIVERGENCE = "report-divergence"
    # A torch canary's report given to a build (report/canary.py): said, never failing
    INVALID_CANARY_REPORT = "invalid-canary-report"
    STALE_CANARY_REPORT = "stale-canary-report"

    @property
    def label(self) -> str:
        """The kind's name as authors read it, in Spanish."""
        return LABELS[self]


LABELS: dict[Kind, str] = {
    Kind.CONFIG: "configuracion",
    Kind.REFUSED: "rechazo",
    Kind.FRONT_MATTER: "front-matter",
    Kind.UNKNOWN_META_KEY: "clave-desconocida",
    Kind.INVALID_OPTION: "opcion-invalida",
    Kind.UNVERIFIED_LANGUAGE: "lenguaje-no-verificado",
    Kind.UNKNOWN_OPTION: "opcion-desconocida",
    Kind.MISSING_ID: "id-ausente",
    Kind.INVALID_ID: "id-invalido",
    Kind.MISSING_REASON: "motivo-ausente",
    Kind.DUPLICATE_ID: "id-duplicado",
    Kind.MIXED_SNIPPET: "snippet-mixto",
    Kind.MISSING_SNIPPET: "snippet-ausente",
    Kind.TAB_IN_CODE: "tabulador-en-codigo",
    Kind.MISSING_PART: "parte-ausente",
    Kind.MALFORMED_PART: "parte-mal-formada",
    Kind.MALFORMED_FAQ: "faq-mal-formada",
    Kind.WRONG_TYPE: "tipo-incorrecto",
    Kind.SECTION_ORDER: "orden",
    Kind.TEMPLATE_TEXT: "texto-de-plantilla",
    Kind.SEED_WITHOUT_REPLACEMENT: "semilla-sin-reemplazo",
    Kind.DANGLING_NAV_ENTRY: "nav-entrada-inexistente",
    Kind.PAGE_NOT_IN_NAV: "pagina-fuera-del-nav",
    Kind.UNUSED_SNIPPET: "snippet-sin-uso",
    Kind.RESERVED_PAGE: "pagina-reservada",
    Kind.MISSING_SEED: "semilla-ausente",
    Kind.MALFORMED_ORIGIN: "origen-mal-formado",
    Kind.MALFORMED_DATA_FILES: "datos-mal-declarados",
    Kind.MALFORMED_GLOSSARY: "glosario-mal-formado",
    Kind.AVOIDED_PHRASE: "expresion-a-evitar",
    Kind.CODE_ONLY_WORD: "palabra-de-codigo",
    Kind.BUILD_WORD: "palabra-de-la-verificacion",
    Kind.NOTEBOOK_NAME_CLASH: "nombre-tapado-en-el-cuaderno",
    Kind.MALFORMED_SOURCES: "fuentes-mal-formadas",
    Kind.MALFORMED_SOURCE: "fuente-mal-formada",
    Kind.UNKNOWN_SOURCE_KEY: "fuente-clave-desconocida",
    Kind.INCOMPLETE_SOURCE: "fuente-incompleta",
    Kind.INVALID_DATE: "fecha-invalida",
    Kind.SOURCES_POLICY: "politica-fuentes",
    Kind.FUTURE_DATE: "fecha-futura",
    Kind.STALE_SOURCE: "fuente-caducada",
    Kind.SOURCE_REVIEW_DUE: "fuente-por-revisar",
    Kind.INCOMPLETE_FINGERPRINT: "huella-incompleta",
    Kind.CHANGED_SOURCE: "fuente-cambiada",
    Kind.SAME_FINGERPRINT: "fuente-misma-huella",
    Kind.EXECUTION_DISABLED: "ejecucion-desactivada",
    Kind.MISSING_RECORDING: "grabacion-ausente",
    Kind.NO_RESULT: "sin-resultado",
    Kind.EXPECTATION: "expectativa",
    Kind.EXECUTION_FAILURE: "fallo-ejecucion",
    Kind.UNEXPECTED_EXCEPTION: "excepcion-inesperada",
    Kind.MISSING_EXCEPTION: "excepcion-ausente",
    Kind.UNREADABLE_GRAPH: "grafo-ilegible",
    Kind.UNREADABLE_CURVE: "curva-ilegible",
    Kind.VOLATILE_DIVERGENCE: "divergencia-volatil",
    Kind.DIVERGENCE: "divergencia",
    Kind.ORPHAN_RECORDING: "grabacion-huerfana",
    Kind.STOPPED_PROCESSES: "procesos-detenidos",
    Kind.DEVICE_MARKS: "marcas-de-dispositivo",
    Kind.UNSTABLE_OUTPUT: "salida-inestable",
    Kind.INVALID_REPORT: "informe-invalido",
    Kind.WRONG_REPORT_RUNNER: "informe-runner",
    Kind.STALE_REPORT: "informe-obsoleto",
    Kind.INCOMPLETE_REPORT: "informe-incompleto",
    Kind.REPORT_DIVERGENCE: "informe-divergencia",
    Kind.INVALID_CANARY_REPORT: "informe-canario-invalido",
    Kind.STALE_CANARY_REPORT: "informe-canario-obsoleto",
}
