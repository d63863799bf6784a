"""What the benchmark measures on: copies of the site, and P2's synthetic corpus."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from docverify.core import config

# What a copy of the site needs to build: pages, snippets, hooks, theme overrides, the verified
# texts of the sources' fingerprints, the seed texts that articles name in `seed:` (the glossary's
# lint exempts them: site/glossary.py), and the configuration.
SITE_PARTS = (
    "docs",
    "snippets",
    "hooks",
    "overrides",
    "fingerprints",
    "tests/site/semillas",
    "mkdocs.yml",
    "pyproject.toml",
)
CORPUS_PYPROJECT = """\
[project]
name = "bench-corpus"
version = "0"

[tool.docverify]
docs_dir = "docs"
snippets_dir = "snippets"
"""
# Small torch operations, a few sharing a session: what a tutorial page does, minus the prose.
CORPUS_BLOCKS = [
    "import torch\nx = torch.arange({n}.0)\nprint(x.sum().item())",
    "import torch\nprint(torch.ones(2, 3).mul({n}).mean().item())",
    "import torch\nw = torch.tensor({n}.0, requires_grad=True)\n(w * w).backward()\n"
    "print(w.grad.item())",
    "import torch\nm = torch.eye(3) * {n}\nprint(torch.linalg.det(m).item())",
    "import torch\nprint(torch.linspace(0, {n}, 5).tolist())",
    "import torch\nprint(torch.stack([torch.zeros(2), torch.full((2,), {n}.0)]).shape)",
    "import torch\nprint(torch.manual_seed(0) is not None, torch.rand(2).shape)",
    "import torch\ny = torch.arange(6.0).reshape(2, 3) + {n}\nprint(y.t().contiguous().sum(0))",
    "import torch\nwith torch.no_grad():\n    print(torch.relu(torch.tensor([-{n}.0, {n}.0])))",
    "import torch\nprint(torch.nn.functional.softmax(torch.tensor([0.0, {n}.0]), 0).sum().item())",
]


def copy_site(root: Path, dest: Path) -> Path:
    """Copy what the site needs to build (SITE_PARTS) from `root` into a new folder `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in SITE_PARTS:
        source = root / name
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(
                source, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
            )
        else:
            shutil.copy2(source, dest / name)
    return dest


def make_corpus(dest: Path, pages: int, blocks: int) -> Path:
    """A throwaway docverify project: `pages` pages of `blocks` small torch blocks each."""
    (dest / "docs").mkdir(parents=True)
    (dest / "snippets").mkdir()
    (dest / "pyproject.toml").write_text(CORPUS_PYPROJECT, encoding="utf-8")
    for p in range(pages):
        parts = [f"# Página {p}\n"]
        for b in range(blocks):
            code = CORPUS_BLOCKS[b % len(CORPUS_BLOCKS)].format(n=(p + b) % 7 + 1)
            session = ' session="s"' if b % 5 in (1, 2) else ""
            if b % 5 == 2:  # reads what the previous block of the session defined
                code = "print(type(torch).__name__)\n" + code
            parts.append(f'Texto {b}.\n\n```python exec="on" id="b{b}"{session}\n{code}\n```\n')
        (dest / "docs" / f"p{p:03d}.md").write_text("\n".join(parts), encoding="utf-8")
    return dest


def page_specs(root: Path, runner: str) -> list[list[dict[str, Any]]]:
    """The block specs of every page of the project at `root`, as the engine sends them."""
    from docverify.parsing.pages import read_site  # noqa: PLC0415
    from docverify.running.specs import spec  # noqa: PLC0415

    cfg = config.load(root)
    return [[spec(cfg, b) for b in p.blocks if b.runs_on(runner)] for p in read_site(cfg)]
