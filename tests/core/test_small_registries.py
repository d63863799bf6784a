"""The small registries of core/: block statuses, installed versions, Markdown escaping, run
policies and device marks. Expected values are written here, from what each docstring promises."""

from __future__ import annotations

import pytest
from docverify.core import device_marks as marks
from docverify.core import policies, versions
from docverify.core.markdown import md_escape
from docverify.core.status import Status

# --- core/status.py ------------------------------------------------------------------------------


def test_each_status_has_its_label_mark_and_whether_it_ran() -> None:
    seen = {s: (s.label, s.mark, s.ran) for s in Status}
    assert seen == {
        Status.OK: ("coincide con su grabación", "✓", True),
        Status.DIVERGE: ("no coincide con su grabación", "✗", True),
        Status.MISSING: ("sin grabación", "", True),
        Status.ERROR: ("falló", "✗", True),
        Status.OTHER_RUNNER: ("no corre en este runner", "", False),
        Status.NOT_RUN: ("no ejecutado en esta construcción", "", False),
    }


def test_status_values_on_disk_never_change() -> None:
    """report.json keeps these strings; accept reads older reports with them."""
    assert [s.value for s in Status] == [
        "ok", "diverge", "missing", "error", "other-runner", "not-run"
    ]  # fmt: skip


# --- core/versions.py ----------------------------------------------------------------------------


def test_an_installed_distribution_has_its_version_and_a_missing_one_none() -> None:
    assert versions.installed("pytest") == pytest.__version__
    assert versions.installed("no-existe-este-paquete-docverify") is None


@pytest.mark.parametrize(
    ("version", "public"),
    [("2.13.0+cpu", "2.13.0"), ("2.13.0", "2.13.0"), ("1+a+b", "1"), ("", ""), (None, None)],
)
def test_the_public_version_drops_the_local_label(version: str | None, public: str | None) -> None:
    assert versions.public(version) == public


def test_versions_are_the_same_without_their_local_label() -> None:
    assert versions.same("2.13.0+cpu", "2.13.0") and versions.same("2.13.0", "2.13.0+cu128")
    assert not versions.same("2.13.0", "2.13.1") and not versions.same("2.13.0", None)
    assert versions.same(None, None)


# --- core/markdown.py ----------------------------------------------------------------------------


def test_markdown_characters_are_escaped_and_the_rest_kept() -> None:
    special = "\\`*_{}[]<>#|"
    assert md_escape(special) == "".join("\\" + c for c in special)
    assert md_escape("a (b) c! ñ-1.5") == "a (b) c! ñ-1.5"
    assert md_escape(3) == "3"


# --- core/policies.py ----------------------------------------------------------------------------


def test_a_policy_value_outside_its_choices_is_named_with_the_allowed_ones() -> None:
    assert policies.problem("device_policy", "as-written") is None
    assert policies.problem("last_value", "show") is None
    assert policies.problem("device_policy", "cuda") == (
        "device_policy: «cuda» no es un valor válido; usa «default-cuda» o «as-written»."
    )
    assert policies.problem("last_value", None) == (
        "last_value: «None» no es un valor válido; usa «hide» o «show»."
    )


@pytest.mark.parametrize(
    ("options", "meta", "expected"),
    [
        ({"last_value": "show"}, {"last_value": "hide"}, "show"),  # the block wins
        ({}, {"last_value": "show"}, "show"),  # then the page
        ({"last_value": None}, {"last_value": "show"}, "show"),  # an unset option falls through
        ({"last_value": "mal"}, {"last_value": "show"}, "show"),  # so does an invalid one
        ({}, {"last_value": "mal"}, "hide"),  # then the site
        ({}, {}, "hide"),
    ],
)
def test_a_policy_comes_from_the_block_then_the_page_then_the_site(
    options: dict[str, object], meta: dict[str, object], expected: str
) -> None:
    assert policies.resolve("last_value", options, meta, "hide") == expected


# --- core/device_marks.py ------------------------------------------------------------------------


def test_marks_are_kept_only_in_recordings_of_the_cpu_runner() -> None:
    assert marks.kept("cpu", ["device", "random"]) == ("device", "random")
    assert marks.kept("gpu", ["device", "random"]) == ()


def test_marks_are_read_known_once_and_in_order() -> None:
    assert marks.parse(" device , random,raro,random ") == ("random", "device")
    assert marks.parse("") == () and marks.parse(None) == ()
    assert marks.header_value(["device", "accelerator", "random"]) == "random, accelerator, device"
    assert marks.header_value([]) == ""


def test_marks_in_spanish() -> None:
    assert marks.text([]) == ""
    assert marks.text(["device"]) == "muestra un dispositivo"
    assert marks.text(["device", "random"]) == (
        "depende de números aleatorios y muestra un dispositivo"
    )
    assert marks.text(["device", "accelerator", "random"]) == (
        "depende de números aleatorios, pregunta por el acelerador y muestra un dispositivo"
    )
    assert marks.any_text() == (
        "depende de números aleatorios, pregunta por el acelerador o muestra un dispositivo"
    )


@pytest.mark.parametrize(
    ("reasons", "policy", "can"),
    [
        ([], "default-cuda", True),
        (["random"], "as-written", True),
        (["random"], "default-cuda", False),
        (["random", "device"], "as-written", False),
        (["accelerator"], "as-written", False),
    ],
)
def test_which_marked_blocks_can_still_match_the_cpu_output(
    reasons: list[str], policy: str, can: bool
) -> None:
    assert marks.can_match_cpu(reasons, policy) is can
