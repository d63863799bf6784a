"""output.credit: a page whose code is quoted says where from, word for word, and a page of our
own code says nothing."""

from __future__ import annotations

from conftest import Project
from docverify.output import credit
from docverify.parsing.pages import read_page

SHA = "fedcba9876543210fedcba9876543210fedcba98"
ORIGIN = (
    "origin:\n  repository: duena/tutoriales_x\n  path: carpeta/ejemplo.py\n"
    f"  commit: {SHA}\n  license: MIT\n"
)
# The credit of ORIGIN, written out by hand: repository (its `_` escaped for Markdown), the file
# at its commit, the short commit, the license and its SPDX page.
CREDIT = (
    r"El código de esta página viene de [duena/tutoriales\_x]"
    f"(https://github.com/duena/tutoriales_x/blob/{SHA}/carpeta/ejemplo.py): archivo "
    "`carpeta/ejemplo.py` en el commit `fedcba987654`, con licencia "
    "[MIT](https://spdx.org/licenses/MIT.html). Se muestra como lo escribieron sus autores, "
    "comentarios incluidos, salvo los bloques que la página presenta como propios."
)


def _credit(project: Project, front: str) -> str:
    project.page("p.md", f'---\ntitle: "P"\n{front}---\n\nTexto.\n')
    cfg = project.config
    return credit.markdown(read_page(cfg, cfg.docs_dir / "p.md"))


def test_quoted_code_gets_the_whole_credit_with_its_class(project: Project) -> None:
    assert _credit(project, ORIGIN) == CREDIT + "\n{ .dv-origen }\n\n"


def test_own_code_or_a_malformed_origin_gets_no_credit(project: Project) -> None:
    assert _credit(project, "") == ""
    assert _credit(project, ORIGIN.replace("MIT", "MIT-ish")) == ""
