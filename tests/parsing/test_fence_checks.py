"""parsing.fence_checks: each problem of an executed fence, exactly as an author reads it."""

from __future__ import annotations

import pytest
from docverify.core.findings import Finding, Level
from docverify.core.kinds import Kind
from docverify.parsing.fence_checks import problems, stops

PAGE, LINE = "docs/a.md", 7
# Every option an executed block accepts, as the author guide lists them.
ACCEPTED = (
    "atol, curve, device_policy, exec, graph, id, last_value, literal, own, raises, reason, "
    "rtol, runner, session, source, tabs, timeout, title, updatetoc"
)


def at(kind: Kind, message: str, fix: str) -> Finding:
    return Finding(kind, message, PAGE, LINE, fix, Level.ERROR)


def check(language: str = "python", **options: str) -> list[Finding]:
    return problems(language, {"exec": "on", **options}, PAGE, LINE)


def invalid(message: str, fix: str) -> Finding:
    return at(Kind.INVALID_OPTION, message, fix)


@pytest.mark.parametrize(
    ("language", "named"), [("bash", "«bash»"), ("", "«(sin lenguaje)»"), ("pycon", "«pycon»")]
)
def test_a_language_other_than_python_is_the_only_problem(language: str, named: str) -> None:
    # Unknown options and a missing id are not reported: the fence is no block at all.
    assert check(language, foo="1") == [
        at(
            Kind.UNVERIFIED_LANGUAGE,
            f'bloque con exec="on" en {named}: solo se verifica Python, y ningún bloque puede '
            "ejecutarse sin verificarse.",
            'usa ```python exec="on" id="…"``` o quita exec="on".',
        )
    ]


@pytest.mark.parametrize("language", ["python", "py"])
def test_both_names_of_python_are_verified(language: str) -> None:
    assert check(language, id="uno") == []


MISSING_ID = at(
    Kind.MISSING_ID,
    "bloque ejecutado sin id: la grabación no tendría nombre estable.",
    'añade id="nombre-del-bloque" a la línea de apertura del bloque.',
)


def test_unknown_options_are_sorted_and_come_before_a_missing_id() -> None:
    assert check(zeta="1", alfa="2") == [
        at(
            Kind.UNKNOWN_OPTION,
            f"un bloque tiene opciones desconocidas: «alfa», «zeta». Las que se leen: {ACCEPTED}.",
            "quítala o usa una opción de la guía de autores («Opciones de un bloque»).",
        ),
        MISSING_ID,
    ]


def test_a_misspelt_option_names_its_block_and_the_option_meant() -> None:
    """`timout` is `timeout` written wrong: the block is named by its id, the fix says which
    option was meant; an option like none (`tolerancia`) gets no guess."""
    assert check(id="media", timout="5", tolerancia="1e-3") == [
        at(
            Kind.UNKNOWN_OPTION,
            "el bloque «media» tiene opciones desconocidas: «timout», «tolerancia». Las que se "
            f"leen: {ACCEPTED}.",
            "escribe «timeout» en lugar de «timout».",
        )
    ]
    [one] = check(id="media", sesion="a")
    assert one.message.startswith("el bloque «media» tiene una opción desconocida: «sesion».")
    assert one.fix == "escribe «session» en lugar de «sesion».", one.fix


@pytest.mark.parametrize("options", [{}, {"id": ""}])
def test_a_missing_or_empty_id_stops_there(options: dict[str, str]) -> None:
    # Nothing after the id is checked: the bad timeout and runner go unreported.
    assert check(timeout="x", runner="tpu", **options) == [MISSING_ID]


@pytest.mark.parametrize("block_id", ["Uno", "-uno", "uno_dos", "uno dos", "ñu"])
def test_an_invalid_id_stops_there(block_id: str) -> None:
    assert check(id=block_id, timeout="x") == [
        at(
            Kind.INVALID_ID,
            f"id «{block_id}» no válido: usa minúsculas, cifras y guiones.",
            'renombra el id, por ejemplo id="acumulacion-hojas".',
        )
    ]


@pytest.mark.parametrize("block_id", ["uno", "1", "a-2-b", "0x"])
def test_a_valid_id_has_no_problem(block_id: str) -> None:
    assert check(id=block_id) == []


@pytest.mark.parametrize("name", ["timeout", "rtol", "atol"])
@pytest.mark.parametrize("value", ["-1", "-0.5", "dos", ""])
def test_a_numeric_option_must_be_a_number_at_least_zero(name: str, value: str) -> None:
    assert check(id="uno", **{name: value}) == [
        invalid(f'{name}="{value}" no es un número ≥ 0.', f'escribe {name}="2" o quita la opción.')
    ]


@pytest.mark.parametrize("value", ["0", "0.0", "2", "1e-5"])
def test_zero_and_positive_numbers_are_valid(value: str) -> None:
    assert check(id="uno", timeout=value, rtol=value, atol=value) == []


def test_each_bad_number_is_reported_in_order() -> None:
    found = check(id="uno", atol="a", timeout="t", rtol="r")
    assert [f.message for f in found] == [
        'timeout="t" no es un número ≥ 0.',
        'rtol="r" no es un número ≥ 0.',
        'atol="a" no es un número ≥ 0.',
    ]


@pytest.mark.parametrize(
    "layout", ["above", "below", "block", "material-block", "tabbed-left", "tabbed-right"]
)
def test_every_layout_is_valid(layout: str) -> None:
    assert check(id="uno", source=layout) == []


@pytest.mark.parametrize("layout", ["console", "", "Above"])
def test_an_unknown_layout_lists_the_valid_ones(layout: str) -> None:
    assert check(id="uno", source=layout) == [
        invalid(
            f'source="{layout}" no es una disposición del código y su salida.',
            'usa source="above" (por defecto) o uno de: below, block, material-block, '
            "tabbed-left, tabbed-right.",
        )
    ]


@pytest.mark.parametrize(
    ("name", "allowed", "last"),
    [
        ("device_policy", "«default-cuda» o «as-written»", "as-written"),
        ("last_value", "«hide» o «show»", "show"),
    ],
)
def test_a_policy_value_must_be_one_of_its_choices(name: str, allowed: str, last: str) -> None:
    assert check(id="uno", **{name: "otro"}) == [
        invalid(
            f"{name}: «otro» no es un valor válido; usa {allowed}.",
            f'escribe {name}="{last}".',
        )
    ]


@pytest.mark.parametrize(
    "options",
    [
        {"device_policy": "default-cuda"},
        {"device_policy": "as-written"},
        {"last_value": "hide"},
        {"last_value": "show"},
    ],
)
def test_each_policy_choice_is_valid(options: dict[str, str]) -> None:
    assert check(id="uno", **options) == []


@pytest.mark.parametrize("literal", ["address", "all", "pid, elapsed", "temp-path,address", ""])
def test_known_literal_rules_are_valid(literal: str) -> None:
    assert check(id="uno", literal=literal) == []


def test_unknown_literal_rules_are_named() -> None:
    assert check(id="uno", literal="address,hora fecha") == [
        invalid(
            'literal="address,hora fecha": hora, fecha no es una regla de valores cambiantes.',
            'usa literal="address,temp-path,pid,elapsed" (las que quieras) o literal="all".',
        )
    ]


def test_an_unknown_runner() -> None:
    assert check(id="uno", runner="tpu", reason="x") == [
        invalid(
            'runner="tpu" no existe: usa cpu o gpu.',
            'escribe runner="cpu" o runner="gpu" junto a reason="…".',
        )
    ]


@pytest.mark.parametrize("runner", ["cpu", "gpu"])
@pytest.mark.parametrize("reason", [None, ""])
def test_a_runner_needs_a_reason(runner: str, reason: str | None) -> None:
    options = {"runner": runner} if reason is None else {"runner": runner, "reason": reason}
    assert check(id="dos-b", **options) == [
        at(
            Kind.MISSING_REASON,
            f"el bloque «dos-b» es solo {runner} sin motivo.",
            'añade reason="por qué solo corre en ese runner".',
        )
    ]


@pytest.mark.parametrize("runner", ["cpu", "gpu"])
def test_a_runner_with_its_reason_is_valid(runner: str) -> None:
    assert check(id="uno", runner=runner, reason="usa cuda") == []


def test_problems_come_unknown_then_values_then_runner() -> None:
    found = check(id="uno", otra="1", runner="gpu", literal="x", source="c", last_value="v")
    assert [f.kind for f in found] == [
        Kind.UNKNOWN_OPTION,
        *[Kind.INVALID_OPTION] * 3,
        Kind.MISSING_REASON,
    ]
    assert [f.message[:6] for f in found[1:4]] == ["source", "last_v", "litera"]


@pytest.mark.parametrize("kind", [Kind.UNVERIFIED_LANGUAGE, Kind.MISSING_ID, Kind.INVALID_ID])
def test_a_fatal_problem_stops_the_fence(kind: Kind) -> None:
    others = [at(Kind.UNKNOWN_OPTION, "m", "f"), at(Kind.INVALID_OPTION, "m", "f")]
    assert stops([*others, at(kind, "m", "f")]) is True


@pytest.mark.parametrize(
    "kinds", [[], [Kind.UNKNOWN_OPTION], [Kind.INVALID_OPTION, Kind.MISSING_REASON]]
)
def test_other_problems_do_not_stop_the_fence(kinds: list[Kind]) -> None:
    assert stops([at(k, "m", "f") for k in kinds]) is False
