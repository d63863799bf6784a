"""The README and the maintainers' reference (docs-dev/) against what the repository holds: the
runner recipe, the pins, the actionlint configuration, the Python they ask for, and the README as a
newcomer's first page (short, the two commands first, every link to docs-dev/ resolving)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
import yaml
from support import workflow_rules as rules

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS_DEV = ROOT / "docs-dev"
CI_DOC = DOCS_DEV / "ci.md"
WORKFLOWS = ROOT / ".github" / "workflows"
RECIPE_TITLE = "### Registrar el runner GPU propio"
# Commands that start the runner's machine or put something into it.
CROSSING = re.compile(
    r"\b(docker|podman|ssh|scp|rsync|crear-vm|virsh|qemu\S*|run\.sh|cloud-init)\b"
)
DEFAULT_LABELS = {"self-hosted", "linux", "x64"}


def section(text: str, title: str) -> str:
    start = text.index(title)
    end = text.find("\n### ", start + len(title))
    return text[start : end if end != -1 else len(text)]


def bash_blocks(text: str) -> list[str]:
    return [
        block.replace("\\\n", " ")  # one logical line per command
        for block in re.findall(r"```bash\n(.*?)```", text, re.DOTALL)
    ]


def recipe_problems(recipe: str) -> list[str]:
    """What in the recipe's shell blocks would put a credential able to register another runner
    inside the runner's machine; empty when only a just-in-time configuration goes in."""
    script = "\n".join(bash_blocks(recipe))
    problems = []
    if not script:
        return ["la receta no tiene un bloque bash"]
    if "registration-token" in script:
        problems.append("pide un token de registro (actions/runners/registration-token)")
    if re.search(r"config\.sh|--token\b", script):
        problems.append("registra con config.sh --token: el token tiene que entrar en la máquina")
    if re.search(r"\b(scp|rsync)\b", script):
        problems.append("copia archivos a la máquina: solo entra la configuración just-in-time")
    jit = re.search(
        r"(\w+)=\$\(gh api -X POST \S*actions/runners/generate-jitconfig\b.*?"
        r"--jq \.encoded_jit_config\)",
        script,
    )
    if not jit:
        return [*problems, "no pide la configuración just-in-time (generate-jitconfig)"]
    allowed = {jit.group(1)}
    allowed |= set(re.findall(r"(\w+)=\$\(crear-vm\b", script))  # the machine's address
    starts = [line for line in script.splitlines() if re.search(r"\brun\.sh\b", line)]
    if not starts or not all(
        re.search(rf'run\.sh --jitconfig "\${jit.group(1)}"', line) for line in starts
    ):
        problems.append("no arranca el runner con run.sh --jitconfig y esa configuración")
    for line in script.splitlines():
        code = line.split("#", 1)[0]
        if not CROSSING.search(code):
            continue
        if re.search(r"token", code, re.IGNORECASE) or re.search(
            r"(^|\s)(-e|--env|--env-file|-v|--volume|--mount)(\s|=|$)", code
        ):
            problems.append(f"pasa una credencial o un entorno a la máquina: {code.strip()}")
        extra = set(re.findall(r"\$\{?(\w+)", code)) - allowed
        if extra:
            problems.append(
                f"lleva a la máquina más que la configuración ({extra}): {code.strip()}"
            )
    return problems


def readme() -> str:
    return README.read_text(encoding="utf-8")


def ci_doc() -> str:
    """The CI part of the maintainers' reference: workflows, runner recipe, pinned actions."""
    return CI_DOC.read_text(encoding="utf-8")


def every_doc() -> str:
    """The README and every file of docs-dev/, one text."""
    return "\n".join(
        path.read_text(encoding="utf-8") for path in [README, *sorted(DOCS_DEV.glob("*.md"))]
    )


def test_the_runner_recipe_puts_no_registration_token_in_the_runner_machine() -> None:
    assert recipe_problems(section(ci_doc(), RECIPE_TITLE)) == []


# The recipe as it was (a registration token handed to the container), and ways back to it.
LEAKY = {
    "token-de-registro-en-el-entorno": """```bash
while true; do
  token=$(gh api -X POST repos/P/R/actions/runners/registration-token --jq .token)
  docker run --rm --gpus all -e TOKEN="$token" imagen-runner-gpu bash -c '
    ./config.sh --url https://github.com/P/R --token "$TOKEN" \\
      --name "gpu-$(hostname)" --labels gpu --ephemeral --unattended &&
    unset TOKEN && ./run.sh'
done
```""",
    "credencial-del-anfitrion-a-la-vm": """```bash
jit=$(gh api -X POST repos/P/R/actions/runners/generate-jitconfig -f name=x \\
  --jq .encoded_jit_config)
vm=$(crear-vm imagen)
ssh "runner@$vm" env GH_TOKEN="$GH_TOKEN" ./run.sh --jitconfig "$jit"
```""",
    "un-archivo-con-la-credencial": """```bash
jit=$(gh api -X POST repos/P/R/actions/runners/generate-jitconfig -f name=x \\
  --jq .encoded_jit_config)
vm=$(crear-vm imagen)
scp ~/.config/gh/hosts.yml "runner@$vm:"
ssh "runner@$vm" ./run.sh --jitconfig "$jit"
```""",
    "sin-jit": """```bash
vm=$(crear-vm imagen)
ssh "runner@$vm" ./run.sh
```""",
}


@pytest.mark.parametrize("recipe", list(LEAKY.values()), ids=list(LEAKY))
def test_the_recipe_check_catches_a_credential_in_the_machine(recipe: str) -> None:
    assert recipe_problems(recipe)


def gpu_workflows() -> set[str]:
    """The workflows with a job whose labels come from DOCS_GPU_RUNNER (it may run on the
    self-hosted GPU runner)."""
    return {
        path.name
        for path in WORKFLOWS.glob("*.yml")
        for job in rules.load(path.read_text(encoding="utf-8"))["jobs"].values()
        if rules.GPU_RUNS_ON.match(str(job.get("runs-on", "")))
    }


def group_problems(recipe: str, workflows: set[str]) -> list[str]:
    """What keeps the recipe's runner from being reserved to this repository's `workflows` at
    refs/heads/main: the group it creates, and the group its just-in-time runners join."""
    script = "\n".join(bash_blocks(recipe))
    create = re.search(
        r"(\w+)=\$\(gh api -X POST orgs/\S+/actions/runner-groups\b(.*?)--jq \.id\)", script
    )
    if not create:
        return ["no crea el grupo de runners (gh api -X POST orgs/…/actions/runner-groups)"]
    group, args = create.groups()
    problems = []
    if "visibility=selected" not in args:
        problems.append("el grupo no es solo de los repositorios elegidos (visibility=selected)")
    if len(re.findall(r"selected_repository_ids\[\]=", args)) != 1:
        problems.append("el grupo no es de un solo repositorio")
    if "restricted_to_workflows=true" not in args:
        problems.append("el grupo no se limita a unos workflows (restricted_to_workflows=true)")
    selected = re.findall(
        r"selected_workflows\[\]=\S+?/\.github/workflows/([\w.-]+)@([^'\s]+)", args
    )
    if {name for name, _ in selected} != workflows:
        problems.append(
            f"workflows del grupo {sorted(n for n, _ in selected)} ≠ {sorted(workflows)}"
        )
    if any(ref != "refs/heads/main" for _, ref in selected):
        problems.append("un workflow del grupo no está fijado a refs/heads/main")
    jit = re.search(r"generate-jitconfig\b(.*?)--jq", script)
    if not jit or not re.search(rf'runner_group_id="?\$\{{?{group}\b', jit.group(1)):
        problems.append("la configuración just-in-time no pide el grupo que crea la receta")
    return problems


def test_the_runner_joins_a_group_of_this_repository_and_its_gpu_workflows() -> None:
    assert gpu_workflows() == {"docs.yml", "weekly.yml"}
    assert group_problems(section(ci_doc(), RECIPE_TITLE), gpu_workflows()) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("-F restricted_to_workflows=true", "-F restricted_to_workflows=false"),
        ("-f visibility=selected", "-f visibility=all"),
        ("/weekly.yml@refs/heads/main", "/weekly.yml@refs/heads/otra"),
        ('runner_group_id="$grupo"', "runner_group_id=1"),
        ('-F "selected_repository_ids[]=$repositorio"', ""),
    ],
    ids=["sin-restringir", "todos-los-repos", "otra-rama", "grupo-por-defecto", "sin-repo"],
)
def test_the_group_check_catches_a_wider_runner(old: str, new: str) -> None:
    recipe = section(ci_doc(), RECIPE_TITLE)
    assert old in recipe, old
    assert group_problems(recipe.replace(old, new), gpu_workflows())


def test_a_new_workflow_on_the_gpu_runner_must_join_the_group() -> None:
    """A third workflow asking for DOCS_GPU_RUNNER is not in the group: the check says so."""
    recipe = section(ci_doc(), RECIPE_TITLE)
    assert group_problems(recipe, gpu_workflows() | {"gpu-queue.yml"})


def test_the_recipe_registers_the_labels_the_variable_names() -> None:
    recipe = section(ci_doc(), RECIPE_TITLE)
    script = "\n".join(bash_blocks(recipe))
    registered = set(re.findall(r"labels\[\]=([\w.-]+)", script))
    example = re.search(r"gh variable set DOCS_GPU_RUNNER --body '([^']+)'", recipe)
    assert example, "la receta debe decir cómo poner DOCS_GPU_RUNNER"
    assert set(json.loads(example.group(1))) == registered
    actionlint = yaml.safe_load((ROOT / ".github" / "actionlint.yaml").read_text(encoding="utf-8"))
    assert registered - DEFAULT_LABELS <= set(actionlint["self-hosted-runner"]["labels"])


def test_actionlint_knows_every_variable_the_workflows_read() -> None:
    config = yaml.safe_load((ROOT / ".github" / "actionlint.yaml").read_text(encoding="utf-8"))
    assert set(config) <= {"self-hosted-runner", "config-variables", "paths"}, set(config)
    used = {
        name
        for path in WORKFLOWS.glob("*.yml")
        for name in re.findall(r"\bvars\.([A-Za-z_]\w*)", path.read_text(encoding="utf-8"))
    }
    assert rules.GPU_VARIABLE in used
    assert used <= set(config["config-variables"]), used - set(config["config-variables"])
    assert "gpu" in config["self-hosted-runner"]["labels"]


def test_the_readme_table_of_pinned_actions_matches_the_workflows() -> None:
    """Each action in use, with the version and commit it is pinned to, has its row."""
    rows = {
        match.group(1): (match.group(2), match.group(3))
        for match in re.finditer(
            r"^\s*\| `([\w-]+/[\w-]+)` \| (v[\d.]+) \| `([0-9a-f]{12})` \|", ci_doc(), re.MULTILINE
        )
    }
    pinned = {}
    for path in WORKFLOWS.glob("*.yml"):
        for ref, comments in rules.uses_lines(path.read_text(encoding="utf-8")).items():
            action, _, sha = ref.partition("@")
            for comment in comments:
                version = re.search(r"v\d+(?:\.\d+)*", comment)
                assert version, ref
                pinned[action] = (version.group(0), sha[:12])
    assert pinned
    assert rows == pinned, {"docs-dev/ci.md": rows, "workflows": pinned}


def test_the_readme_asks_for_the_python_pyproject_asks_for() -> None:
    spec = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    minimum = spec["requires-python"].removeprefix(">=")
    asked = re.findall(
        r"Python (?:≥ ?(\d+\.\d+(?:\.\d+)?)|(\d+\.\d+(?:\.\d+)?) o posterior)", every_doc()
    )
    versions = {a or b for a, b in asked}
    assert versions == {minimum}, versions


# The README is a newcomer's first page: how long it may be, and how much of it is the first screen.
README_MAX_LINES = 300
FIRST_SCREEN_LINES = 40
TWO_COMMANDS = ("python3 tasks.py serve", "python3 tasks.py test")
CHECKLIST_TITLE = "## Primera publicación: lista de comprobación"
CHECKLIST_ANCHOR = "primera-publicación-lista-de-comprobación"
LINK = re.compile(r"\[[^\]]+\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to dashes."""
    text = heading.strip().lstrip("#").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def link_problems(path: Path, text: str) -> list[str]:
    """Every relative link of a Markdown file whose file or anchor does not exist."""
    problems = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        if not resolved.exists():
            problems.append(f"{path.name}: {target} (no existe)")
            continue
        if anchor and resolved.suffix == ".md":
            headings = re.findall(r"^#+ .*$", resolved.read_text(encoding="utf-8"), re.MULTILINE)
            if anchor not in {slug(h) for h in headings}:
                problems.append(f"{path.name}: {target} (sin ese título)")
    return problems


def readme_problems(text: str) -> list[str]:
    """What keeps a README from being read in minutes: too long, the commands or the way to the
    first publish past the first screen, a maintainer file it does not link."""
    problems = []
    lines = text.splitlines()
    if len(lines) > README_MAX_LINES:
        problems.append(f"{len(lines)} líneas (máximo {README_MAX_LINES})")
    first = "\n".join(lines[:FIRST_SCREEN_LINES])
    for command in TWO_COMMANDS:
        if command not in first:
            problems.append(f"«{command}» no está en la primera pantalla")
    if f"](docs-dev/ci.md#{CHECKLIST_ANCHOR})" not in first:
        problems.append("la primera publicación no se alcanza desde la primera pantalla")
    linked = {target.partition("#")[0] for target in LINK.findall(text)}
    for path in sorted(DOCS_DEV.glob("*.md")):
        if f"docs-dev/{path.name}" not in linked:
            problems.append(f"no enlaza docs-dev/{path.name}")
    return problems


def test_the_readme_is_a_first_page() -> None:
    assert readme_problems(readme()) == []


def test_the_first_page_check_catches_a_manual() -> None:
    text = readme()
    assert readme_problems(text + "\nmás\n" * README_MAX_LINES)
    title, rest = text.split("\n", 1)
    pushed_down = title + "\nUna introducción larga.\n" * FIRST_SCREEN_LINES + rest
    assert len(readme_problems(pushed_down)) == 3, readme_problems(pushed_down)
    unlinked = text.replace("](docs-dev/motor.md)", "](docs-dev/)")
    assert "no enlaza docs-dev/motor.md" in readme_problems(unlinked)


def test_every_relative_link_of_the_readme_and_docs_dev_resolves() -> None:
    found = [
        problem
        for path in [README, *sorted(DOCS_DEV.glob("*.md"))]
        for problem in link_problems(path, path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_link_check_catches_a_moved_file_and_a_renamed_heading() -> None:
    assert link_problems(README, "[x](docs-dev/no-existe.md)")
    assert link_problems(README, "[x](docs-dev/ci.md#un-titulo-que-no-hay)")
    assert link_problems(CI_DOC, "[x](#otro-titulo)")
    assert not link_problems(README, "[x](docs-dev/ci.md) [y](https://example.org/a#b)")


def scheduled_workflows() -> list[str]:
    return sorted(
        path.name
        for path in WORKFLOWS.glob("*.yml")
        if "schedule" in rules.events(rules.load(path.read_text(encoding="utf-8")))
    )


def variables_read() -> set[str]:
    """Every repository variable (vars.NAME) a workflow reads."""
    return {
        name
        for path in WORKFLOWS.glob("*.yml")
        for name in re.findall(r"\bvars\.([A-Za-z_]\w*)", path.read_text(encoding="utf-8"))
    }


def checklist_problems(doc: str) -> list[str]:
    """What the first-publish checklist must say, read against the workflows: it opens the CI
    doc, names the Pages source and how to set it, the branch, the visibility, what a fork must
    switch on (each scheduled workflow included) and every repository variable a workflow reads."""
    if CHECKLIST_TITLE not in doc:
        return ["falta la lista de la primera publicación"]
    problems = []
    first_section = re.search(r"^## ", doc, re.MULTILINE)
    if first_section is None or first_section.start() != doc.index(CHECKLIST_TITLE):
        problems.append("la lista no es la primera sección de docs-dev/ci.md")
    start = doc.index(CHECKLIST_TITLE) + len(CHECKLIST_TITLE)
    part = doc[start:].split("\n## ", 1)[0]  # up to the next section
    for needed in (
        "«GitHub Actions»",
        "build_type=workflow",
        "`main`",
        "público",
        "privado",
        "fork",
        "Issues",
        "docs.yml --ref main",
    ):
        if needed not in part:
            problems.append(f"la lista no dice «{needed}»")
    for workflow in scheduled_workflows():
        if f"gh workflow enable {workflow}" not in part:
            problems.append(f"no dice cómo activar {workflow} en un fork")
    listed = set(re.findall(r"^\s*\| `([A-Z_]+)` \|", part, re.MULTILINE))
    if listed != variables_read():
        problems.append(f"variables de la lista {sorted(listed)} ≠ las que leen los workflows")
    return problems


def test_the_first_publish_checklist_opens_the_ci_doc() -> None:
    assert checklist_problems(ci_doc()) == []


def test_the_checklist_check_catches_what_a_first_publish_misses() -> None:
    doc = ci_doc()
    assert checklist_problems(doc.replace("build_type=workflow", "build_type=legacy"))
    first_row = next(line for line in doc.splitlines() if line.startswith("   | `DOCS_"))
    assert any("variables" in p for p in checklist_problems(doc.replace(first_row + "\n", "")))
    scheduled = scheduled_workflows()
    assert scheduled
    unenabled = doc.replace(f"gh workflow enable {scheduled[0]}", "gh workflow list")
    assert any(scheduled[0] in p for p in checklist_problems(unenabled))
    moved = doc.replace(CHECKLIST_TITLE, "## Otra sección\n\n" + CHECKLIST_TITLE, 1)
    assert "la lista no es la primera sección de docs-dev/ci.md" in checklist_problems(moved)
