"""Pages that cite sources, judged on a given day (the fixtures of the sources' tests)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from docverify.core import config as config_mod
from docverify.core.findings import Finding
from docverify.parsing.pages import read_site
from docverify.site import checks as site
from docverify.sources import fingerprint as fp_mod
from docverify.sources import freshness
from docverify.sources.model import Source

TITLE = "Entrada Python de autograd"
REF = "PyTorch / torch/autograd/__init__.py"
# The scenarios' verification day: the suite's pinned day (see support.clock), judged on days
# counted from it.
VERIFIED = config_mod.today()
QUOTED = f'"{VERIFIED.isoformat()}"'  # as written in a page's front matter


def source_page(project, verified: str | None, extra: str = "", name: str = "guia.md") -> Path:
    """A page of `project` citing one source; `verified=None` leaves the date out. `extra`: more
    keys of the source, as YAML lines."""
    date = "" if verified is None else f"\n    verified: {verified}"
    return project.page(
        name,
        '---\ntitle: "Guía"\nsources:\n'
        f'  - title: "{TITLE}"\n    reference: "{REF}"{date}{extra}\n'
        "---\n\nTexto.\n",
    )


def judge(project, today: dt.date) -> list[Finding]:
    """Every site-wide finding of `project` with its sources judged on `today`."""
    cfg = project.config
    pages = read_site(cfg)
    return site.per_page(cfg, pages, today).findings + site.site_wide(cfg, pages, None)


def expected_review_by(cfg: config_mod.Config, source: Source) -> dt.date:
    """Review-by date from pyproject's policy: the source's own interval, capped by the maximum."""
    pol, _ = freshness.policy(cfg)
    days = min(source.review_days or pol.max_age_days, pol.max_age_days)
    return source.verified + dt.timedelta(days=days)


def torch_fingerprint(obj: str, sha: str, version: str = "2.13.0") -> str:
    return (
        f'\n    fingerprint:\n      package: torch\n      version: "{version}"\n'
        f'      object: {obj}\n      sha256: "{sha}"'
    )


def backward_sha() -> str:
    return fp_mod.digest(
        fp_mod.object_source(fp_mod.package_dir("torch"), "torch.autograd.backward")
    )
