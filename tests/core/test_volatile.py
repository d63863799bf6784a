"""Volatile values: one list of rules, applied the same by check, record and the page."""

from __future__ import annotations

import re
import tempfile

import pytest
from conftest import Project
from docverify.core import volatile
from docverify.core.findings import errors
from docverify.core.kinds import Kind
from docverify.parsing.pages import read_site
from docverify.running.executor import Executor
from docverify.verifying import compare, recordings
from docverify.verifying.outcome import tolerance
from docverify.verifying.record import record
from docverify.verifying.verify import verify

TOL = compare.Tolerance(rtol=1e-5, atol=1e-8)


@pytest.fixture(autouse=True)
def _local_author(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


@pytest.mark.parametrize("rule", volatile.RULES, ids=lambda r: r.name)
def test_each_rule_rewrites_its_documented_example(rule: volatile.Rule) -> None:
    rewritten = volatile.apply(rule.example)
    assert rule.placeholder in rewritten and rewritten != rule.example
    assert volatile.apply(rewritten) == rewritten, "aplicar dos veces no cambia nada"
    assert volatile.apply(rule.example, tuple(n for n in volatile.NAMES if n != rule.name)) == (
        rule.example
    ), "sin su regla, el ejemplo se compara tal cual"


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("pid=4242", "pid=[pid]"),
        ("PID: 4242", "PID: [pid]"),  # any case, a colon
        ("proceso con ppid 17 y pid 18", "proceso con ppid [pid] y pid [pid]"),  # a space
    ],
)
def test_the_pid_rule_covers_each_documented_form(text: str, written: str) -> None:
    assert volatile.apply(text) == written


@pytest.mark.parametrize(
    "text",
    [
        "tensor([1., 2.], grad_fn=<AddBackward0>)",  # no address
        "timeout=5 s",  # a whole number with a unit is not a measured duration
        "1.5",  # a number alone
        "x = 0.25 * y",
        "/work/tmp/datos.pt",  # tmp inside another folder is not a temporary folder
        "valor 0x7f2c1a3b9e50",  # hexadecimal without «at »: marked by hand
        "rapid=12",  # «pid» inside a word
        "subprocess 4242 finished",  # only the «still running» warning names a live pid
        "subprocesses 4242 is still running",
        "tensor 4242 is still running",
        "tensor(12.5000)",
    ],
)
def test_rules_leave_meaningful_values_alone(text: str) -> None:
    assert volatile.apply(text) == text


def test_the_pid_of_a_popen_left_running_is_volatile() -> None:
    """Python's ResourceWarning for a Popen dropped while its process runs names its pid."""
    warning = "ResourceWarning: subprocess 29938 is still running"
    assert volatile.apply(warning) == "ResourceWarning: subprocess [pid] is still running"
    assert compare.matches(warning, warning.replace("29938", "31337"), TOL)
    assert volatile.apply(warning, ("address",)) == warning  # literal="pid" keeps it


def test_matches_and_merge_use_the_rules_and_keep_a_readable_placeholder() -> None:
    first = "<AddBackward0 object at 0x7f2c1a3b9e50>\ntardó 0.0123 s\npid=4242\nfin 3"
    second = "<AddBackward0 object at 0x55d1e0a2c410>\ntardó 0.9 s\npid=17\nfin 3"
    assert compare.matches(first, second, TOL)
    assert not compare.matches(first, second.replace("fin 3", "fin 4"), TOL)
    written = compare.merge(None, first, TOL)
    assert written == ("<AddBackward0 object at [dirección]>\ntardó [duración] s\npid=[pid]\nfin 3")
    assert compare.matches(written, second, TOL)
    # An old recording with a raw address converges to the placeholder on re-recording.
    assert compare.merge(first, second, TOL) == written


def test_temp_roots_put_the_longest_first_and_add_the_macos_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # tempfile.gettempdir() returns tempfile.tempdir when it is set; its last «/» is dropped.
    monkeypatch.setattr(tempfile, "tempdir", "/tmp/yoXX/")
    roots = volatile._temp_roots()
    macos = r"/var/folders/[\w-]+/[\w-]+/T"
    assert roots.split("|") == ["/tmp/yoXX", "/var/tmp", "/tmp", macos]
    # Longest first: inside /tmp/yoXX the random folder is the next name, not «yoXX».
    pattern = re.compile(rf"(?:{roots})/[^/]+")
    assert pattern.match("/tmp/yoXX/docverify-a1/datos.pt").group() == "/tmp/yoXX/docverify-a1"
    assert pattern.fullmatch("/var/folders/ab-1/c_d/T/docverify-a1")
    monkeypatch.setattr(tempfile, "tempdir", "/")  # a root of its own adds no empty alternative
    assert volatile._temp_roots().split("|") == ["/var/tmp", "/tmp", macos]


def test_volatile_only_wants_the_same_tokens_save_volatile_looking_ones() -> None:
    assert volatile.volatile_only("objeto 1234567890", "objeto 9876543210")
    assert volatile.volatile_only("en 0x7f2c1a3b fin", "en 0x55d1e0a2 fin")
    assert not volatile.volatile_only("objeto 1234567890", "objeto 1234567890")  # no difference
    assert not volatile.volatile_only("objeto 1234567890", "objeto abc")  # volatile on one side
    assert not volatile.volatile_only("objeto abc", "objeto 1234567890")
    assert not volatile.volatile_only("objeto 0x1f", "objeto 12")  # 12: too short for an id
    # Not as many tokens: more than a value differs, even where the pairs agree.
    assert not volatile.volatile_only("objeto 1234567890", "objeto 9876543210 más")
    assert not volatile.volatile_only("objeto 1234567890 más", "objeto 9876543210")
    assert volatile.marked("objeto 1234567890 fin", "objeto 9876543210 fin") == "objeto [..] fin"
    with pytest.raises(ValueError, match="zip"):  # never a line cut short
        volatile.marked("objeto 1234567890", "objeto 9876543210 más")


def test_literal_option_turns_rules_off() -> None:
    assert volatile.active(None) == volatile.NAMES
    assert "address" not in volatile.active("address")
    assert volatile.active("address, pid") == ("temp-path", "elapsed")
    assert volatile.active("all") == ()
    assert volatile.active("") == volatile.NAMES
    literal = compare.Tolerance(1e-5, 1e-8, volatile.active("address"))
    assert not compare.matches("f at 0x7f2c1a3b9e50", "f at 0x55d1e0a2c410", literal)
    assert volatile.unknown("address,fecha") == ["fecha"]


GRAD_FN = """\
import torch

x = torch.ones(2, requires_grad=True)
z = x * 3 + 1
print(z.grad_fn)
print(z.grad_fn.next_functions[0][0])
"""


def test_grad_fn_prints_record_once_and_check_twice(project: Project, executor: Executor) -> None:
    """The loop of the issue: an address recorded, then every check failed on a new one."""
    project.page("a.md", f'```python exec="on" id="grad"\n{GRAD_FN}```\n')
    config = project.config
    pages = read_site(config)
    recorded = record(config, pages, "cpu", executor)
    assert not errors(recorded.findings) and len(recorded.written) == 1
    body = recordings.of_block(config, pages[0].blocks[0]).get("cpu").body
    assert "object at [dirección]>" in body and "0x" not in body, body
    for _ in range(2):
        report = verify(config, read_site(config), "cpu", executor)
        assert not errors(report.findings), report.findings
        observed = report.outcomes["a/grad"].observed
        assert re.search(r"object at 0x[0-9a-f]+>", observed), "la página muestra lo observado"
    assert record(config, read_site(config), "cpu", executor).written == []


def test_a_literal_block_compares_the_address(project: Project, executor: Executor) -> None:
    project.page("a.md", f'```python exec="on" id="grad" literal="address"\n{GRAD_FN}```\n')
    config = project.config
    assert tolerance(config, read_site(config)[0].blocks[0]).volatile == volatile.active("address")
    # One real run, no recording yet: what a recording of this block holds. (record itself may
    # refuse to write it: its second run, in another process, can put the object elsewhere.)
    first = verify(config, read_site(config), "cpu", executor)
    block = first.pages[0].blocks[0]
    observed = first.outcomes[block.key].observed
    assert "object at 0x" in observed, "con literal=address, la salida guarda la dirección"
    # Another process (another machine, another run) puts the object at another address.
    moved = re.sub(r"at 0x[0-9a-f]+", "at 0x7f0000000001", observed)
    path = recordings.path_for(config, block, "cpu")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(recordings.render(block, "cpu", first.env, "2026-01-01", moved), "utf-8")
    report = verify(config, read_site(config), "cpu", executor)
    assert [f.kind for f in errors(report.findings)] == [Kind.VOLATILE_DIVERGENCE]


def test_unknown_rule_in_literal_is_an_error(project: Project) -> None:
    project.page("a.md", '```python exec="on" id="a" literal="fecha"\nprint(1)\n```\n')
    found = read_site(project.config)[0].findings
    assert [(f.kind, f.where) for f in found] == [(Kind.INVALID_OPTION, "docs/a.md:1")]
    assert "address" in found[0].fix


def test_volatile_looking_divergence_says_where_to_put_the_marker(
    project: Project, executor: Executor
) -> None:
    """An id no rule covers: the hint shows the marked line, and following it passes."""
    project.page(
        "a.md",
        '```python exec="on" id="ident"\nprint("inicio")\nprint("objeto", id(object()))\n```\n',
    )
    config = project.config
    record(config, read_site(config), "cpu", executor)
    path = recordings.path_for(config, read_site(config)[0].blocks[0], "cpu")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("objeto ", "objeto 1"), encoding="utf-8")  # another id
    report = verify(config, read_site(config), "cpu", executor)
    (finding,) = errors(report.findings)
    assert finding.kind == Kind.VOLATILE_DIVERGENCE
    assert finding.where == "docs/a.md:3", "la línea que imprimió el valor"
    assert "volver a grabar no sirve" in finding.fix
    lines = path.read_text(encoding="utf-8").split("\n")
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("objeto"))
    assert f"línea {number}: «{lines[number - 1]}» → «objeto [..]»" in finding.fix
    lines[number - 1] = "objeto [..]"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert not errors(verify(config, read_site(config), "cpu", executor).findings)


def test_a_real_divergence_is_not_called_volatile(project: Project, executor: Executor) -> None:
    project.page("a.md", '```python exec="on" id="a"\nprint("total", 1234567)\n```\n')
    config = project.config
    record(config, read_site(config), "cpu", executor)
    project.page("a.md", '```python exec="on" id="a"\nprint("total", 7654321)\n```\n')
    (finding,) = errors(verify(config, read_site(config), "cpu", executor).findings)
    assert finding.kind == Kind.DIVERGENCE and "docverify record" in finding.fix
