"""The built site: both articles with every part of their seed, and outputs that come from runs."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from conftest import mkdocs_build

ARTICLES = {
    "articulos/primer-ejercicio": [
        "Primer ejercicio con PyTorch: comprobar un gradiente escalar",
        "Distingue instalación, cálculo directo y acumulación con una prueba pequeña en CPU.",
        "Qué aprenderás",
        "Elegir el paquete",
        "Escribir la respuesta esperada",
        "Observar la acumulación",
        "Antes de empezar",
        "Python y cálculo básicos",
        "Entorno aislado para ejercicios posteriores",
        "Compara derivadas analíticas y salidas observadas sin ocultar los fallos.",
        "Conclusiones clave",
        "Instalación y acelerador requieren comprobaciones distintas.",
        "Una derivada conocida facilita el diagnóstico.",
        "Limpiar gradientes de forma deliberada.",
        "El README remite a las instrucciones oficiales para instalar paquetes binarios.",
        "La derivada es 2x, de modo que el gradiente esperado es 6",
        "La expectativa acumulada es 12",
        "Cómo elegir",
        "Best when",
        "You need predictable behavior and easy auditing",
        "Main risk",
        "Can become difficult to explain or debug",
        "Pasos de implementación",
        "Registrar la distribución y las versiones.",
        "Comprobar la derivada en CPU.",
        "Recalcular para estudiar la acumulación.",
        "Ejemplo para copiar",
        "Preguntas frecuentes",
        "¿Necesito una GPU?",
        "No. Basta un escalar en CPU.",
        "¿Por qué recalcular la expresión?",
        "Una nueva pasada directa crea un grafo nuevo después de liberar el anterior.",
        "Fuentes",
        "PyTorch / README.md",
        "PyTorch / torch/autograd/__init__.py",
        "Fuente verificada 2026-09-23",
    ],
    "articulos/arquitectura-autograd": [
        "Arquitectura de autograd: del cálculo directo a los gradientes",
        "Lee el contrato de entrada de Python sin atribuirle una auditoría completa del motor.",
        "Qué aprenderás",
        "Relaciones del cálculo directo",
        "Responsabilidad de la entrada Python",
        "Gestionar grafo y estado",
        "Antes de empezar",
        "Compara derivadas analíticas y salidas observadas sin ocultar los fallos.",
        "Conclusiones clave",
        "La entrada no describe todo el motor.",
        "Conservar y crear grafos son operaciones distintas.",
        "Un grafo nuevo no limpia gradientes.",
        "Participar como valor intermedio no implica guardar automáticamente una derivada",
        "retain_graph toma por defecto el valor de create_graph.",
        "La documentación advierte que backward con create_graph puede formar ciclos de "
        "referencias.",
        "Cómo elegir",
        "Pasos de implementación",
        "Seguir las dependencias del cálculo.",
        "Leer los argumentos enviados al motor.",
        "Gestionar grafo y gradientes por separado.",
        "Ejemplo para copiar",
        "fresh forward != automatic gradient reset",
        "Preguntas frecuentes",
        "¿retain_graph equivale a create_graph?",
        "¿Se auditaron todos los backends?",
        "No, solo las entradas Python fijadas.",
        "Fuentes",
        "PyTorch / torch/autograd/__init__.py",
        "Fuente verificada 2026-09-23",
    ],
}


def text_of(site: Path, page: str) -> str:
    raw = (site / page / "index.html").read_text(encoding="utf-8")
    article = re.search(r"<article[^>]*>(.*)</article>", raw, re.DOTALL)
    raw = article.group(1) if article else raw
    raw = re.sub(r"<[^>]+>", "", raw)
    return re.sub(r"\s+", " ", html.unescape(raw))


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted(ARTICLES))
def test_every_seed_part_is_on_the_page(built_site: Path, page: str) -> None:
    text = text_of(built_site, page)
    missing = [part for part in ARTICLES[page] if part not in text]
    assert not missing, f"{page}: faltan partes de la semilla: {missing}"
    # The parts come in the seed's order.
    order = [
        "Qué aprenderás",
        "Antes de empezar",
        "Compara derivadas",
        "Conclusiones clave",
        "Cómo elegir",
        "Pasos de implementación",
        "Ejemplo para copiar",
        "Preguntas frecuentes",
        "Fuentes",
    ]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions), f"{page}: partes fuera de orden"


@pytest.mark.slow
def test_executed_outputs_appear(built_site: Path) -> None:
    exercise = text_of(built_site, "articulos/primer-ejercicio")
    assert "tensor(12.) tensor(6.)" in exercise
    assert "Esperado 12 · Observado tensor(12.)" in exercise
    assert "Esperado 6 · Observado tensor(6.)" in exercise
    autograd = text_of(built_site, "articulos/arquitectura-autograd")
    assert "RuntimeError: Trying to backward through the graph a second time" in autograd
    assert "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor" in autograd
    assert "accumulate_grad=True," in autograd
    assert "retain_graph = create_graph" in autograd
    assert "reference cycle" in autograd
    # no GPU report in this build: what the GPU runner compares with, and never a GPU ✓
    assert "GPU: compara con CPU" in autograd and "GPU ✓" not in autograd
    assert "torch 2.13.0" in autograd


@pytest.mark.slow
def test_home_lists_articles_with_goals(built_site: Path) -> None:
    home = text_of(built_site, "")
    for title in ("Primer ejercicio con PyTorch", "Arquitectura de autograd"):
        assert title in home
    assert "Observar la acumulación" in home
    assert "Gestionar grafo y estado" in home


@pytest.mark.slow
def test_rendered_output_comes_from_the_run(site_copy, tmp_path: Path) -> None:
    """Change the code in a copy: the page shows the new output and the strict build fails."""
    root = site_copy()
    example = root / "snippets/articulos/primer-ejercicio/ejemplo.py"
    example.write_text(example.read_text(encoding="utf-8").replace("3.0", "4.0"), encoding="utf-8")
    strict = mkdocs_build(root, tmp_path / "strict")
    assert strict.returncode != 0
    assert "divergencia" in strict.stderr and "articulos/primer-ejercicio/ejemplo" in strict.stderr
    assert "snippets/articulos/primer-ejercicio/ejemplo.py:5" in strict.stderr  # expectation line
    loose = mkdocs_build(root, tmp_path / "loose", strict=False)
    assert loose.returncode != 0  # an error fails the build whatever strict says
    text = text_of(tmp_path / "loose", "articulos/primer-ejercicio")
    assert "tensor(16.) tensor(8.)" in text
    assert "Esperado 12 · Observado tensor(16.) ✗" in text


@pytest.mark.slow
def test_missing_part_fails_the_build_naming_file_and_part(site_copy, tmp_path: Path) -> None:
    root = site_copy()
    page = root / "docs/articulos/arquitectura-autograd.md"
    text = page.read_text(encoding="utf-8")
    text = text.replace("## Cómo elegir\n", "## Comparativa\n")
    text = text.replace("takeaways:\n", "conclusiones:\n")
    page.write_text(text, encoding="utf-8")
    result = mkdocs_build(root, tmp_path / "out")
    assert result.returncode != 0
    assert "docs/articulos/arquitectura-autograd.md" in result.stderr
    assert "falta la sección «## Cómo elegir»" in result.stderr
    assert "falta «Conclusiones clave»" in result.stderr
