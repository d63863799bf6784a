"""Baselines: gpu compares with its own recording, else the cpu one under the device rule only.

No GPU here: the "gpu" runs below are real CPU runs relabelled as gpu (support/relabel.py), of
code that prints what a GPU prints (a tensor repr with its device argument). The recordings come
from real CPU runs of the code before it changed, as an author's would.
"""

from __future__ import annotations

import datetime as dt
import inspect
import os
import subprocess
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.autograd.forward_ad as fwAD
from conftest import BIN, Project
from docverify.core import device_rule
from docverify.core.config import Config
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.parsing.pages import Block, Page, read_site
from docverify.running.executor import Executor
from docverify.verifying import baselines, compare, recordings
from docverify.verifying.outcome import Reference, Verification
from docverify.verifying.record import record
from docverify.verifying.recordings import Recording
from docverify.verifying.verify import unrun, verify
from support import report, report_page
from support.relabel import cpu_run_as_gpu, drop_device

# What torch appends to the repr of a tensor that lives on the first GPU.
SUFFIX = ", device='cuda:0')"
# Code that prints its tensors as the GPU runner would see them (torch's own repr + the device).
ON_GPU = f"def gpu_repr(t):\n    return repr(t)[:-1] + {SUFFIX!r}\n"


@pytest.fixture(autouse=True)
def _local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01


def check_as_gpu(project: Project, executor: Executor) -> Verification:
    return verify(project.config, read_site(project.config), "gpu", executor, run=cpu_run_as_gpu)


def check_cpu(project: Project, executor: Executor) -> Verification:
    return verify(project.config, read_site(project.config), "cpu", executor)


def write_block(project: Project, code: str, block_id: str = "salida") -> None:
    project.page(
        "a.md", f'# A\n\n```python exec="on" id="{block_id}"\n--8<-- "a/{block_id}.py"\n```\n'
    )
    project.snippet(f"a/{block_id}.py", code)


def record_cpu(project: Project, executor: Executor) -> None:
    report = record(project.config, read_site(project.config), "cpu", executor)
    assert report.written and not errors(report.findings), report.findings


CPU_CODE = "import torch\nt = torch.arange(4.).reshape(2, 2)\nprint(t)\nprint(t.sum())\n"
GPU_CODE = ON_GPU + (
    "import torch\nt = torch.arange(4.).reshape(2, 2)\n"
    "print(gpu_repr(t))\nprint(gpu_repr(t.sum()))\n"
)


def gpu_like(cpu: str) -> str:
    """A CPU repr as torch prints it on cuda:0: the device is its first argument after the data."""
    found = [cpu.find(f", {m}=") for m in ("dtype", "grad_fn", "requires_grad")]
    at = min((i for i in found if i >= 0), default=len(cpu) - 1)
    return cpu[:at] + ", device='cuda:0'" + cpu[at:]


# --- the device rule, on reprs torch really prints ---------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.tensor(6.0),
        lambda: torch.arange(6.0).reshape(2, 3),
        lambda: torch.ones(2, requires_grad=True) * 2,
        lambda: torch.nn.Parameter(torch.zeros(2, 2)),
        lambda: torch.arange(40.0),  # wraps over several lines
        lambda: torch.tensor([1, 2], dtype=torch.int8),
    ],
    ids=["escalar", "matriz", "grad-fn", "parametro", "varias-lineas", "dtype"],
)
def test_the_device_argument_of_a_repr_is_dropped(make: Any) -> None:
    cpu = repr(make())
    gpu = gpu_like(cpu)
    assert gpu != cpu and "device='cuda:0'" in gpu
    assert drop_device(gpu) == cpu
    # torch moves an argument that does not fit to its own line, after ",\n" and the indent
    wrapped = gpu.replace(", device=", ",\n       device=", 1)
    assert drop_device(wrapped) == cpu


@pytest.mark.parametrize(
    "text",
    [
        "cuda:0",
        "device(type='cuda', index=0)",
        "x.device = cuda:0",
        "device='cuda:0'",  # not inside a tensor repr
        "torch.tensor([1.], device='cuda:0')",  # code, not a repr
        "mytensor(1., device='cuda:0')",
        "tensor([[1.], [2.]]) device='cuda:0'",  # after the repr closed
        "tensor(1., device='cuda:0x')",
        "tensor(1., device='cpu')",
        "NVIDIA H200",
        "True",
    ],
)
def test_nothing_else_is_masked(text: str) -> None:
    assert drop_device(text) == text


def test_the_rule_applies_to_every_repr_in_the_output() -> None:
    cpu = [repr(torch.tensor(float(i))) for i in range(3)]
    gpu = [c[:-1] + SUFFIX.replace("0", str(i)) for i, c in enumerate(cpu)]
    text = "[" + ", ".join(gpu) + "] y cuda:1"
    assert drop_device(text) == "[" + ", ".join(cpu) + "] y cuda:1"


# --- which recording a runner compares with -------------------------------------------------


def _rec(runner: str) -> Recording:
    return Recording(Path(f"x.{runner}.txt"), runner, {}, f"salida {runner}")


def test_choice_of_baseline(project: Project) -> None:
    write_block(project, "print(1)\n")
    (block,) = read_site(project.config)[0].blocks

    def choose(block: Block, recs: dict[str, Recording], runner: str) -> baselines.Baseline:
        reference = baselines.reference(project.config, block, runner, recs)
        return baselines.choose(runner, reference, recs)

    cpu, gpu = _rec("cpu"), _rec("gpu")
    assert choose(block, {"cpu": cpu, "gpu": gpu}, "gpu").recording is gpu
    assert not choose(block, {"cpu": cpu, "gpu": gpu}, "gpu").device_rule
    fallback = choose(block, {"cpu": cpu}, "gpu")
    assert fallback.recording is cpu and fallback.device_rule
    assert choose(block, {"gpu": gpu}, "cpu").recording is None
    assert choose(block, {"cpu": cpu}, "cpu").recording is cpu
    # a block that does not run on cpu has no cpu baseline on gpu
    block.options["runner"] = "gpu"
    assert choose(block, {"cpu": cpu}, "gpu").recording is None


def test_reference_names_the_recording_and_what_is_missing(project: Project) -> None:
    """Every field of the reference, for each case of the policy, against literals."""
    write_block(project, "print(1)\n")
    (block,) = read_site(project.config)[0].blocks
    cfg = project.config
    marked = Recording(Path("x.cpu.txt"), "cpu", {"device-dependent": "accelerator"}, "1")
    assert baselines.reference(cfg, block, "cpu", {}) == Reference(
        None, "sin grabación (falta salida.cpu.txt)", "cpu", None, ()
    )
    # no recording at all on gpu: it needs the cpu one, its fallback
    assert baselines.reference(cfg, block, "gpu", {}) == Reference(
        None, "sin grabación (falta salida.cpu.txt)", "cpu", "cpu", ()
    )
    assert baselines.reference(cfg, block, "gpu", {"cpu": _rec("cpu")}) == Reference(
        "cpu", "salida.cpu.txt con la regla de dispositivo", "cpu", "cpu", ()
    )
    # a cpu recording marked «accelerator»: gpu needs its own, and says why
    assert baselines.reference(cfg, block, "gpu", {"cpu": marked}) == Reference(
        None,
        "sin grabación (falta salida.gpu.txt: pregunta por el acelerador, así que no se "
        "compara con la de CPU)",
        "gpu",
        "cpu",
        ("accelerator",),
    )
    # a block that runs only on cpu still has its cpu recording as gpu's fallback
    block.options["runner"] = "cpu"
    assert baselines.reference(cfg, block, "gpu", {}).needed == "cpu"
    block.options["runner"] = "gpu"
    assert baselines.reference(cfg, block, "gpu", {}).needed == "gpu"


def test_describe_uses_the_recordings_given(project: Project) -> None:
    """With `recs`, nothing is read from disk (here there is no recording on disk at all)."""
    write_block(project, "print(1)\n")
    (block,) = read_site(project.config)[0].blocks
    cfg = project.config
    assert baselines.describe(cfg, block, "cpu", {"cpu": _rec("cpu")}) == "salida.cpu.txt"
    assert baselines.describe(cfg, block, "cpu") == "sin grabación (falta salida.cpu.txt)"


def test_a_view_numbers_the_lines_of_its_text() -> None:
    assert baselines.View.of("a\nb") == baselines.View("a\nb", (0, 1, 2))
    assert baselines.View.of("") == baselines.View("", (0, 1))
    view = baselines.View.of("a\nb\nc")
    # before the start: the first line; past the end: the line count
    assert [view.original(i) for i in (-2, 0, 1, 2, 3, 9)] == [0, 0, 1, 2, 3, 3]
    joined = baselines.join_suffixes("a\ntensor([1.],\n       dtype=torch.float64)\nb")
    assert joined == baselines.View("a\ntensor([1.], dtype=torch.float64)\nb", (0, 1, 3, 4))
    assert [joined.original(i) for i in (0, 1, 2, 3)] == [0, 1, 3, 4]


WRAPPED_GPU = "tensor([1.],\n       device='cuda:0', dtype=torch.float64)"


def test_without_the_device_rule_both_texts_stay_as_they_are() -> None:
    """A runner's own recording: nothing joined, nothing dropped, on either side."""
    own = baselines.Baseline("gpu", Recording(Path("x.gpu.txt"), "gpu", {}, WRAPPED_GPU))
    assert not own.device_rule
    assert own.expected() == baselines.View(WRAPPED_GPU, (0, 1, 2))
    assert own.comparable(WRAPPED_GPU + "\n") == baselines.View(WRAPPED_GPU, (0, 1, 2))
    # under the rule, the same text joined (expected) and also without its device (observed)
    rule = baselines.Baseline("gpu", Recording(Path("x.cpu.txt"), "cpu", {}, WRAPPED_GPU))
    assert rule.expected().text == "tensor([1.], device='cuda:0', dtype=torch.float64)"
    assert rule.comparable(WRAPPED_GPU).text == "tensor([1.], dtype=torch.float64)"


def test_join_suffixes_keeps_the_device() -> None:
    text = "tensor([1.], device='cuda:0')"
    assert baselines.join_suffixes(text).text == text
    assert baselines.device_view(text).text == "tensor([1.])"


def test_no_recording_matches_nothing() -> None:
    none = baselines.Baseline("gpu", None)
    assert none.source is None and not none.device_rule
    assert none.expected() == baselines.View("", (0, 1))
    tol = compare.Tolerance(rtol=1e-5, atol=1e-8)
    assert not none.matches("", tol)
    assert not baselines.Baseline("cpu", None).matches("", tol)


# --- the rule in a check -----------------------------------------------------------------------


def test_gpu_matches_the_cpu_recording_when_only_the_device_differs(
    project: Project, executor: Executor
) -> None:
    write_block(project, CPU_CODE)
    record_cpu(project, executor)
    write_block(project, GPU_CODE)
    gpu = check_as_gpu(project, executor)
    outcome = gpu.outcomes["a/salida"]
    assert "device='cuda:0'" in (outcome.observed or "")
    assert outcome.status == "ok", outcome.findings
    assert not errors(gpu.findings)
    assert not recordings.path_for(project.config, outcome.block, "gpu").exists()
    # the same output on the cpu runner is a divergence: the rule is the gpu runner's only
    cpu = check_cpu(project, executor)
    assert cpu.outcomes["a/salida"].status == "diverge"


@pytest.mark.parametrize(
    ("cpu_line", "gpu_line"),
    [
        ("print(str(torch.device('cpu')))", "print('cuda:0')"),
        ("print(torch.device('cpu'))", "print(torch.device('cuda', 0))"),
        ("print(torch.tensor(1.))", "print(repr(torch.tensor(1.))[:-1] + \", device='cpu')\")"),
        ("print(torch.tensor(1.))", "print(torch.tensor(1.5))"),
    ],
    ids=["cuda-0-suelto", "objeto-device", "otro-dispositivo", "valor"],
)
def test_anything_else_diverges(
    project: Project, executor: Executor, cpu_line: str, gpu_line: str
) -> None:
    write_block(project, f"import torch\n{cpu_line}\n")
    record_cpu(project, executor)
    write_block(project, f"import torch\n{gpu_line}\n")
    report = check_as_gpu(project, executor)
    outcome = report.outcomes["a/salida"]
    assert outcome.status == "diverge"
    (finding,) = errors(report.findings)
    assert finding.kind == Kind.DIVERGENCE
    assert "a/salida.cpu.txt, con la regla de dispositivo" in finding.message
    assert "docverify accept" in finding.fix and "a/salida.gpu.txt" in finding.fix


def test_an_own_gpu_recording_wins_over_the_cpu_one(project: Project, executor: Executor) -> None:
    write_block(project, "print('cuda:0')\n")
    record_cpu(project, executor)  # the real output, kept as this block's gpu recording
    cfg = project.config
    (block,) = read_site(cfg)[0].blocks
    cpu_path = recordings.path_for(cfg, block, "cpu")
    cpu_path.rename(recordings.path_for(cfg, block, "gpu"))
    write_block(project, "print('cpu')\n")
    record_cpu(project, executor)
    assert check_as_gpu(project, executor).outcomes["a/salida"].status == "diverge"
    write_block(project, "print('cuda:0')\n")
    gpu = check_as_gpu(project, executor)
    assert gpu.outcomes["a/salida"].status == "ok"
    assert check_cpu(project, executor).outcomes["a/salida"].status == "diverge"


def test_missing_baseline_on_gpu_asks_for_the_cpu_recording(
    project: Project, executor: Executor
) -> None:
    write_block(project, "print(1)\n")
    (finding,) = errors(check_as_gpu(project, executor).findings)
    assert finding.kind == Kind.MISSING_RECORDING
    assert "a/salida.cpu.txt" in finding.message
    assert finding.fix.startswith("docverify record --runner cpu")


# --- lint and the verification page say which baseline applies -----------------------------------


def lint_output(root: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    done = subprocess.run(
        [str(BIN / "docverify"), "lint"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    return done.stdout


def shown(cfg: Config, pages: list[Page]) -> dict[str, str]:
    """What the verification page says of the block a/salida."""
    text = report_page.markdown(cfg, pages, unrun(cfg, pages, "cpu"), dt.date(2026, 1, 1))
    return report.said(text)[("a.md", "salida")]


def test_lint_and_verification_page_name_the_baseline(project: Project, executor: Executor) -> None:
    write_block(project, "print(1)\n")
    record_cpu(project, executor)
    text = lint_output(project.root)
    assert "a/salida: cpu → salida.cpu.txt · gpu → salida.cpu.txt con la regla de dispositivo" in (
        text
    )
    cfg = project.config
    pages = read_site(cfg)
    said = shown(cfg, pages)
    assert said["CPU compara con"] == "salida.cpu.txt"
    assert said["GPU compara con"] == "salida.cpu.txt con la regla de dispositivo"
    (block,) = pages[0].blocks
    gpu_path = recordings.path_for(cfg, block, "gpu")
    gpu_path.write_bytes(recordings.path_for(cfg, block, "cpu").read_bytes())
    assert "gpu → salida.gpu.txt" in lint_output(project.root)
    assert shown(cfg, pages)["GPU compara con"] == "salida.gpu.txt"
    block.options["runner"] = "cpu"
    assert baselines.describe(cfg, block, "cpu") == "salida.cpu.txt"


def test_record_on_gpu_writes_only_the_blocks_that_differ(
    project: Project, executor: Executor
) -> None:
    project.page(
        "a.md",
        '# A\n\n```python exec="on" id="igual"\n--8<-- "a/igual.py"\n```\n\n'
        '```python exec="on" id="distinto"\n--8<-- "a/distinto.py"\n```\n',
    )
    project.snippet("a/igual.py", CPU_CODE)
    project.snippet("a/distinto.py", "print('cpu')\n")
    record_cpu(project, executor)
    project.snippet("a/igual.py", GPU_CODE)
    project.snippet("a/distinto.py", "print('cuda:0')\n")
    written = record(  # record runs "on gpu"
        project.config, read_site(project.config), "gpu", executor, run=cpu_run_as_gpu
    )
    assert not written.findings, written.findings  # both blocks ran: none was skipped
    assert [Path(label).name for label, _ in written.written] == ["distinto.gpu.txt"]
    assert written.unchanged == 1
    assert not (project.root / "snippets/a/igual.gpu.txt").exists()


# --- wrapped reprs: torch's own suffix formatting, as on a GPU ----------------------------------


def gpu_repr(tensor):
    """The repr torch prints for `tensor` on cuda:0, made without a GPU: torch's own formatter
    with device='cuda:0' as the first suffix, where torch puts it on a GPU (then it wraps the
    suffixes by line width, as always)."""
    from torch import _tensor_str  # noqa: PLC0415

    real = _tensor_str._add_suffixes

    def add(text, suffixes, indent, force_newline):
        return real(text, ["device='cuda:0'", *suffixes], indent, force_newline)

    _tensor_str._add_suffixes = add
    try:
        return repr(tensor)
    finally:
        _tensor_str._add_suffixes = real


GPU_REPR = "import torch\n\n\n" + inspect.getsource(gpu_repr)


def _tensors(shift: float = 0.0) -> list[torch.Tensor]:
    """32 deterministic tensors whose reprs carry suffixes: 1-D and 2-D of several widths, with
    grad_fn, requires_grad, a dtype, a parameter; their bodies end at many line lengths.
    `shift` changes one value of each, nothing else."""
    made: list[torch.Tensor] = []
    for columns in (1, 2, 3, 4, 5, 6, 7, 8):
        values = torch.arange(2.0 * columns).reshape(2, columns) * 1.25 - 3
        values[0, 0] += shift
        made.append(values.clone().requires_grad_(True) * 2)  # grad_fn=<MulBackward0>
        made.append(values.clone().requires_grad_(True))  # requires_grad=True
        made.append(values.to(torch.float64).flatten())  # dtype=torch.float64
        made.append(torch.nn.Parameter(values[0].clone()) + 1000)  # a wider body, grad_fn
    return made


WIDTHS = [80, 50, 120]  # torch's default line width, and two a block could set


@pytest.fixture
def printoptions() -> Iterator[Callable[[int], None]]:
    yield lambda width: torch.set_printoptions(linewidth=width)
    torch.set_printoptions(profile="default")


@pytest.mark.parametrize("width", WIDTHS)
def test_wrapped_gpu_reprs_match_their_cpu_recording(
    width: int, printoptions: Callable[[int], None]
) -> None:
    """Under the device rule each GPU repr matches the CPU one, however torch wrapped their
    suffixes; a different value does not. Dropping the device alone misses the wrapped ones."""
    printoptions(width)
    tol = compare.Tolerance(rtol=1e-5, atol=1e-8)
    missed = 0
    for tensor, shifted in zip(_tensors(), _tensors(shift=0.5), strict=True):
        cpu, gpu, changed = repr(tensor), gpu_repr(tensor), gpu_repr(shifted)
        assert "device='cuda:0'" in gpu and gpu != changed
        baseline = baselines.Baseline("gpu", Recording(Path("x.cpu.txt"), "cpu", {}, cpu))
        assert baseline.device_rule and baseline.matches(gpu, tol), (cpu, gpu)
        assert not baseline.matches(changed, tol), (cpu, changed)
        missed += drop_device(gpu) != cpu
    assert missed, "ningún repr envuelto: la prueba no ejercita la regla"


def _sparse(n: int, shift: float = 0.0) -> torch.Tensor:
    """A sparse tensor of n values: its repr ends with size=, nnz= and layout=."""
    indices = torch.arange(0, 2 * n, 2).reshape(1, n)
    values = torch.arange(float(n)) * 1.25 + 1 + shift
    return torch.sparse_coo_tensor(indices, values, (2 * n,), check_invariants=False)


def _dual_reprs(n: int, shift: float = 0.0) -> tuple[str, str]:
    """The CPU and the GPU repr of a dual tensor of forward-mode AD: it ends with tangent=."""
    with fwAD.dual_level(), warnings.catch_warnings():
        # make_dual scripts its decompositions once, with torch.jit.script (deprecated)
        warnings.simplefilter("ignore", DeprecationWarning)
        dual = fwAD.make_dual(torch.arange(float(n)) + shift, torch.full((n,), 0.5))
        return repr(dual), gpu_repr(dual)


def test_every_suffix_torch_wraps_is_joined(printoptions: Callable[[int], None]) -> None:
    """Besides dtype, grad_fn and requires_grad: a sparse tensor's size, nnz and layout and a
    dual tensor's tangent, wrapped where a GPU's device pushes them, match their CPU recording
    under the device rule; another value does not."""
    tol = compare.Tolerance(rtol=1e-5, atol=1e-8)
    wrapped: set[str] = set()
    for width in (80, 50, 40, 120):
        printoptions(width)
        for n in range(1, 9):
            cases = [
                (repr(_sparse(n)), gpu_repr(_sparse(n)), gpu_repr(_sparse(n, 0.5))),
                (*_dual_reprs(n), _dual_reprs(n, 0.5)[1]),
            ]
            for cpu, gpu, changed in cases:
                baseline = baselines.Baseline("gpu", Recording(Path("x.cpu.txt"), "cpu", {}, cpu))
                assert baseline.matches(gpu, tol), (width, cpu, gpu)
                assert not baseline.matches(changed, tol), (width, cpu, changed)
                wrapped |= {
                    s
                    for s in ("size", "nnz", "layout", "tangent")
                    if f",\n       {s}=" in cpu + gpu
                }
    assert {"size", "nnz", "layout", "tangent"} <= wrapped, wrapped


@pytest.mark.parametrize(
    "text",
    [
        "config(a=1,\n       dtype=torch.float32)",  # not a tensor repr
        "tensor([1., 2.],\n       peso=3)",  # not one of torch's suffixes
        "tensor([1., 2.]),\n       dtype=torch.float64",  # after the repr closed
        "tensor([[1., 2.],\n        [3., 4.]], grad_fn=<MulBackward0>)",  # rows stay rows
    ],
)
def test_only_a_reprs_own_suffixes_are_joined(text: str) -> None:
    assert baselines.join_suffixes(text).text == text
    assert baselines.device_view(text).text == text


def test_set_printoptions_inside_a_block_keeps_the_rule(
    project: Project, executor: Executor
) -> None:
    """A block narrows the line width: torch wraps the GPU repr's suffixes elsewhere than the
    CPU's, and the check still passes; a value printed after it changes and diverges, and the
    diff and the hint number the lines of the original texts, not of the joined ones."""
    cpu = (
        "import torch\n\ntorch.set_printoptions(linewidth=50)\n"
        "x = torch.arange(6.0, requires_grad=True).reshape(2, 3) * 1.5\n"
        "print('antes')\nprint(x)\nprint('valor', {value})\n"
    )
    write_block(project, cpu.format(value=1))
    record_cpu(project, executor)
    (block,) = read_site(project.config)[0].blocks
    recorded = recordings.of_block(project.config, block).get("cpu")
    assert recorded is not None and "]],\n       grad_fn=<MulBackward0>)" in recorded.body
    gpu = GPU_REPR + cpu.replace("print(x)", "print(gpu_repr(x))")
    write_block(project, gpu.format(value=1))
    report = check_as_gpu(project, executor)
    observed = report.outcomes["a/salida"].observed or ""
    assert "]],\n       device='cuda:0', grad_fn=" in observed  # wrapped where the CPU's is not
    assert report.outcomes["a/salida"].status == "ok", report.findings
    write_block(project, gpu.format(value=2))
    report = check_as_gpu(project, executor)
    (finding,) = errors(report.findings)
    assert finding.kind == Kind.DIVERGENCE
    # Five lines on each side (compared as four: the suffixes joined to the row before them).
    assert "@@ -1,5 +1,5 @@" in finding.detail, finding.detail
    assert finding.line == gpu.format(value=2).split("\n").index("print('valor', 2)") + 1


def test_the_device_rule_in_words_speaks_only_of_itself() -> None:
    """Under the device rule a volatile value (core/volatile.py) and a number within the
    tolerance still match, as on every runner: the rule's words (the verification page, lint)
    must not say that nothing else is masked, only that the rule removes nothing else."""
    tol = compare.Tolerance(rtol=1e-5, atol=1e-8)
    rule = baselines.Baseline(
        "gpu", Recording(Path("x.cpu.txt"), "cpu", {}, "<AddBackward0 object at [dirección]> 1.0")
    )
    observed = "<AddBackward0 object at 0x7f2c1a3b9e50> 1.000001"
    assert rule.device_rule and rule.matches(observed, tol)
    assert "nada más se enmascara" not in device_rule.TEXT
    assert device_rule.TEXT.endswith("esta regla no quita nada más")
