"""output.verification_method: the verification page's legend and reading rule, the page it
is, and the one line under an article's header that links to it."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace as NS

import pytest
from docverify.core.status import Status
from docverify.output import home, verification_method
from docverify.site.coverage import Coverage, GpuObserved
from docverify.verifying.outcome import Provenance, SeenIn

MARKER = "<!-- docverify:verificacion -->"  # coverage_text.MARKER, written out

FIRST = (
    "La línea bajo cada salida: la marca del runner que la ejecutó, la versión de torch, la "
    "fecha y el estado del otro runner. Cuando tiene algo más que decir (lo esperado frente "
    "a lo observado, la salida de otro runner), se despliega con un clic o con el teclado."
)
LAST = (
    "«Error esperado ✓»: el bloque debía terminar con ese error y así fue.",
    "«✗ (…)»: entre paréntesis, por qué: «no coincide con su grabación», «sin grabación» o "
    "«falló»; el sitio no se publica.",
    "«Esperado · Observado»: el valor que anuncia el texto frente al que se imprimió.",
)
HERE = "la salida observada para esta versión"
FROM_REPORTS = (
    "la salida que observó la verificación de este commit (su procedencia está bajo ella)"
)
PENDING = (
    "«GPU: pendiente»: ninguna GPU ha ejecutado el bloque para esta versión; cuando un runner "
    "GPU lo ejecute, su salida tendrá que coincidir con la de CPU, salvo el argumento "
    "device='cuda:N'."
)


def _cov(runner: str = "cpu", observed: int = 2, gpu: GpuObserved | None = None) -> Coverage:
    return Coverage(
        runner=runner,
        torch="2.13.0",
        blocks=2,
        observed=observed,
        cached=0,
        reported=False,
        gpu=gpu,
        own_gpu=0,
        need_gpu=(),
        sources_fresh=0,
        sources_total=0,
    )


def _ul(*items: str) -> str:
    return '<ul class="dv-legend">' + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


def test_the_cross_names_every_reason_a_panel_writes_beside_it() -> None:
    """A block without its recording also shows ✗ under its output (with «sin grabación»):
    the legend's ✗ must not say only «does not match or failed»."""
    shown = verification_method.legend(None)
    crossed = [s for s in Status if s.ran and s is not Status.OK]
    assert Status.MISSING in crossed
    for status in crossed:
        assert f"«{status.label}»" in shown, status


def test_the_legend_with_no_coverage_explains_the_cpu_mark() -> None:
    assert verification_method.legend(None) == _ul(
        FIRST, f"«CPU ✓»: {HERE} coincide con la grabada.", *LAST
    )


@pytest.mark.parametrize(
    ("origin", "here"),
    [(None, HERE), (Provenance("cpu", "2.13.0", "cpu", "2026-01-02", SeenIn.REPORT), FROM_REPORTS)],
)
def test_a_build_from_reports_says_its_output_was_observed_by_the_verification(
    origin: Provenance | None, here: str
) -> None:
    verification = NS(origin=origin)
    shown = verification_method.legend(None, verification)  # type: ignore[arg-type]
    assert shown == _ul(FIRST, f"«CPU ✓»: {here} coincide con la grabada.", *LAST)


def test_the_cpu_mark_only_where_this_version_observed_its_blocks_on_cpu() -> None:
    on_cpu = verification_method.legend(_cov(observed=1))
    assert on_cpu == _ul(FIRST, f"«CPU ✓»: {HERE} coincide con la grabada.", PENDING, *LAST)
    # A cpu build that observed nothing shows no «CPU ✓» to explain.
    assert verification_method.legend(_cov(observed=0)) == _ul(FIRST, PENDING, *LAST)
    # A gpu build observed nothing on CPU: the CPU mark is the recorded one.
    on_gpu = verification_method.legend(_cov(runner="gpu", observed=2))
    recorded = (
        "«CPU: sin comprobar en esta versión»: la salida grabada en CPU, que esta versión no ha "
        "ejecutado."
    )
    assert on_gpu == _ul(FIRST, recorded, *LAST)


def test_the_legend_explains_the_device_label_only_where_a_block_has_one() -> None:
    """«dispositivos del código», folded under the line of a block that leaves its devices to
    its code, is explained where some block does, after the GPU's marks."""
    assert "dispositivos del código" not in verification_method.legend(_cov())
    shown = verification_method.legend(dataclasses.replace(_cov(), as_written=1))
    devices = (
        "«dispositivos del código»: en una GPU, el bloque se ejecuta tal como está escrito y su "
        "código decide en qué dispositivo van sus tensores; los demás se ejecutan allí con cuda "
        "como dispositivo por defecto («cuda por defecto»)."
    )
    assert shown == _ul(FIRST, f"«CPU ✓»: {HERE} coincide con la grabada.", PENDING, devices, *LAST)


def test_the_legend_escapes_its_text_for_html_but_not_quotes() -> None:
    seen = Provenance("gpu", "2.13.0", "A&B <1>", "2026-01-02", SeenIn.BUILD)
    shown = verification_method.legend(_cov(gpu=GpuObserved(blocks=2, seen=seen)))
    assert "(A&amp;B &lt;1&gt;, torch 2.13.0," in shown and "A&B" not in shown
    assert "device='cuda:N'" in verification_method.legend(_cov())


def _result(
    *pages: tuple[str, str], origin: Provenance | None = None, cov: Coverage | None = None
) -> NS:
    return NS(
        pages={rel: NS(rel=rel, body=body) for rel, body in pages},
        coverage=cov,
        verification=NS(origin=origin),
    )


def test_fill_replaces_each_marker_only_on_its_own_line() -> None:
    text = (
        "# Cómo se verifica\n\n"
        "  <!-- docverify:leyenda --> \t\n\n"
        "Escribe `<!-- docverify:leyenda -->` o `<!-- docverify:lectura -->` en tu página.\n\n"
        "\t<!-- docverify:lectura -->\n"
        "Fin.\n"
    )
    legend = _ul(FIRST, f"«CPU ✓»: {HERE} coincide con la grabada.", *LAST)
    expected = (
        "# Cómo se verifica\n\n"
        f"{legend}\n\n"
        "Escribe `<!-- docverify:leyenda -->` o `<!-- docverify:lectura -->` en tu página.\n\n"
        f"{home.reading_rule()}\n"
        "Fin.\n"
    )
    assert verification_method.fill(_result(), text) == expected  # type: ignore[arg-type]


def test_fill_gives_the_legend_the_builds_coverage_and_verification() -> None:
    seen = Provenance("cpu", "2.13.0", "cpu", "2026-01-02", SeenIn.REPORT)
    shown = verification_method.fill(_result(origin=seen), "<!-- docverify:leyenda -->")  # type: ignore[arg-type]
    assert shown == _ul(FIRST, f"«CPU ✓»: {FROM_REPORTS} coincide con la grabada.", *LAST)
    # A cpu build that observed nothing: its coverage leaves the CPU mark out of the legend.
    shown = verification_method.fill(_result(cov=_cov(observed=0)), "<!-- docverify:leyenda -->")  # type: ignore[arg-type]
    assert shown == _ul(FIRST, PENDING, *LAST)


def test_the_page_that_explains_is_the_one_with_the_marker_on_its_own_line() -> None:
    mentions = ("guia.md", f"Escribe `{MARKER}` donde va el párrafo.\n")
    holder = ("como-se-verifica.md", f"# Cómo\n\n  {MARKER}\t\n\nMás.\n")
    other = ("otra.md", f"{MARKER}\n")
    assert verification_method.page_rel(_result(mentions, holder, other)) == "como-se-verifica.md"  # type: ignore[arg-type]
    # With no page that holds it, the report page explains.
    assert verification_method.page_rel(_result(mentions)) == "verificacion.md"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rel", "url"),
    [
        ("index.md", "como-se-verifica.md"),
        ("articulos/a.md", "../como-se-verifica.md"),
        ("articulos/tema/b.md", "../../como-se-verifica.md"),
    ],
)
def test_the_article_line_links_relative_to_the_article(rel: str, url: str) -> None:
    result = _result(("como-se-verifica.md", f"{MARKER}\n"))
    assert verification_method.article_line(result, rel) == (  # type: ignore[arg-type]
        "Cada salida de esta página la imprimió su código al ejecutarse; bajo cada una, dónde y "
        f"cuándo. [Cómo se comprueba]({url})\n{{: .dv-verified-line }}\n\n"
    )
