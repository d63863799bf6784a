"""The credit of a page whose code is quoted from another project (its `origin:`).

Generated from the front matter, never written by hand, so that it always names the repository,
the file, the commit and the license the code was taken under, with links to the file at that
commit and to the license; both builds show it at the top of the page, and the notebook too.
"""

from __future__ import annotations

from docverify.core.markdown import md_escape
from docverify.parsing import origin
from docverify.parsing.pages import Page

CLASS = "dv-origen"


def sentence(found: origin.Origin) -> str:
    """The credit as one Markdown sentence, for the reader."""
    return (
        f"El código de esta página viene de [{md_escape(found.repository)}]({found.link}): "
        f"archivo `{found.path}` en el commit `{found.commit[:12]}`, con licencia "
        f"[{found.license}]({found.license_url}). Se muestra como lo escribieron sus autores, "
        "comentarios incluidos, salvo los bloques que la página presenta como propios."
    )


def markdown(page: Page) -> str:
    """The credit paragraph at the top of `page`, or "" when its code is all ours."""
    found = origin.read(page)
    if found is None:
        return ""
    return f"{sentence(found)}\n{{ .{CLASS} }}\n\n"
