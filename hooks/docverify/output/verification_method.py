"""The page that explains how the site is verified, and the one line that links to it.

What is true of every block is said once, on that page (docs/como-se-verifica.md): where this
version ran (output/coverage_text.py, at coverage_text.MARKER), what each mark under an output means
(LEGEND) and how reading times are computed (READING). The page is whichever holds
coverage.MARKER; each article's header links to it in one line (`article_line`), and to the
report page when no page holds the marker.
"""

from __future__ import annotations

import html
import posixpath
import re

from docverify.core.status import Status
from docverify.output import coverage_text, home, verification_page
from docverify.site.coverage import Coverage
from docverify.site.result import BuildResult
from docverify.verifying.outcome import Verification

LEGEND = "<!-- docverify:leyenda -->"
READING = "<!-- docverify:lectura -->"


def _line(marker: str) -> re.Pattern[str]:
    return re.compile(rf"^[ \t]*{re.escape(marker)}[ \t]*$", re.MULTILINE)


def fill(result: BuildResult, markdown: str) -> str:
    """`markdown` with the verification page's markers replaced (legend, reading rule)."""
    legend_text = legend(result.coverage, result.verification)
    markdown = _line(LEGEND).sub(lambda _: legend_text, markdown)
    return _line(READING).sub(lambda _: home.reading_rule(), markdown)


def page_rel(result: BuildResult) -> str:
    """The docs-relative path of the page that explains the verification: the one that holds
    coverage.MARKER, else the report page."""
    holder = (p.rel for p in result.pages.values() if coverage_text.MARKER_LINE.search(p.body))
    return next(holder, verification_page.URI)


def article_line(result: BuildResult, rel: str) -> str:
    """The one line under an article's header that says where its outputs come from, linked to
    the page that explains it."""
    url = posixpath.relpath(page_rel(result), posixpath.dirname(rel) or ".")
    return (
        "Cada salida de esta página la imprimió su código al ejecutarse; bajo cada una, dónde y "
        f"cuándo. [Cómo se comprueba]({url})\n{{: .dv-verified-line }}\n\n"
    )


def _failed() -> str:
    """The reasons a panel gives beside its ✗ (output/panel.py: every status that ran and did
    not pass, the missing recording included), quoted as the panel writes them."""
    shown = [f"«{status.label}»" for status in Status if status.ran and status is not Status.OK]
    return f"{', '.join(shown[:-1])} o {shown[-1]}"


def legend(cov: Coverage | None, verification: Verification | None = None) -> str:
    """What the marks in the output titles mean, with what this version's coverage says of the
    runners (output/coverage_text.py). A build from the verification jobs' reports
    (`verification.origin`) observed nothing itself: it says so."""
    here = (
        "la salida que observó la verificación de este commit (su procedencia está bajo ella)"
        if verification is not None and verification.origin is not None
        else "la salida observada para esta versión"
    )
    items = [
        "La línea bajo cada salida: la marca del runner que la ejecutó, la versión de torch, la "
        "fecha y el estado del otro runner. Cuando tiene algo más que decir (lo esperado frente "
        "a lo observado, la salida de otro runner), se despliega con un clic o con el teclado."
    ]
    if cov is None or cov.cpu_observed:
        items.append(f"«CPU ✓»: {here} coincide con la grabada.")
    runners = coverage_text.legend_gpu(cov)
    items += [runners] if runners else []
    devices = coverage_text.legend_devices(cov)
    items += [devices] if devices else []
    items += [
        "«Error esperado ✓»: el bloque debía terminar con ese error y así fue.",
        f"«✗ (…)»: entre paréntesis, por qué: {_failed()}; el sitio no se publica.",
        "«Esperado · Observado»: el valor que anuncia el texto frente al que se imprimió.",
    ]
    rows = "".join(f"<li>{html.escape(item, quote=False)}</li>" for item in items)
    return f'<ul class="dv-legend">{rows}</ul>'
