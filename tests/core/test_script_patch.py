"""Build-time patches to a generator's scripts (core/script_patch.py): each text found exactly as
often as written, or a refusal that names the patch, the file, the text and the pinned version."""

from __future__ import annotations

import pytest
from docverify.core import script_patch
from docverify.core.script_patch import Change, Patch, PatchError, Pinned

PINNED = Pinned("paquete-que-no-existe", "1.2.3", "docverify/x/parches.py")
PATCH = Patch(
    "búsqueda de prueba",
    "a/*.js",
    (Change("uno()", "uno(1)"), Change("dos;", "dos;tres;", 2)),
)


def test_every_change_is_applied_where_it_appears_as_often_as_written() -> None:
    text = "uno();dos;x;dos;"
    assert script_patch.apply(text, PATCH, "a/b.js", PINNED) == "uno(1);dos;tres;x;dos;tres;"


@pytest.mark.parametrize(
    ("text", "times"),
    [("dos;dos;", "0 veces"), ("uno();uno();dos;dos;", "2 veces"), ("uno();dos;", "1 vez")],
    ids=["falta", "sobra", "una-de-dos"],
)
def test_a_text_found_another_number_of_times_stops_with_all_it_needs(
    text: str, times: str
) -> None:
    """The message names the package and its installed version («?»: not installed), the patch,
    the file, the text, how often it appears and should appear, where the patches live, the
    version they were written for, and what to do."""
    with pytest.raises(PatchError) as caught:
        script_patch.apply(text, PATCH, "a/b.js", PINNED)
    message = str(caught.value)
    change = next(c for c in PATCH.changes if text.count(c.old) != c.count)
    assert message.startswith("paquete-que-no-existe ?: el parche «búsqueda de prueba»"), message
    assert f"en a/b.js el texto «{change.old}» aparece {times}, y debería aparecer" in message
    assert f"debería aparecer {change.count}." in message
    assert "docverify/x/parches.py" in message and "paquete-que-no-existe 1.2.3" in message
    assert "pyproject.toml" in message


def test_the_whole_refusal_as_an_author_reads_it() -> None:
    with pytest.raises(PatchError) as caught:
        script_patch.apply("dos;dos;", PATCH, "a/b.js", PINNED)
    assert str(caught.value) == (
        "paquete-que-no-existe ?: el parche «búsqueda de prueba» no se puede aplicar: en a/b.js "
        "el texto «uno()» aparece 0 veces, y debería aparecer 1. Los parches de "
        "docverify/x/parches.py están escritos para paquete-que-no-existe 1.2.3: revísalos con "
        "la versión nueva (o quítalos si ya hace lo que hacían) antes de cambiar la versión "
        "fijada en pyproject.toml."
    )


def test_a_text_already_patched_is_recognised_only_when_every_change_is_there() -> None:
    assert script_patch.is_applied("uno(1);dos;tres;", PATCH)
    assert not script_patch.is_applied("uno(1);dos;", PATCH)  # the second change missing
    assert not script_patch.is_applied("uno();dos;tres;", PATCH)  # the first change missing
    removal = Patch("quitar", "a/*.js", (Change("x;", ""),))
    assert script_patch.is_applied("y;", removal) and not script_patch.is_applied("x;y;", removal)
    # A replacement that contains the text it replaces: patched, though the old text is there.
    wrapped = Patch("envolver", "a/*.js", (Change("f();", "g();f();"),))
    assert script_patch.is_applied("g();f();", wrapped)


def test_the_version_of_an_installed_package_and_of_a_missing_one() -> None:
    assert script_patch.version("pytest") == pytest.__version__
    assert script_patch.version("paquete-que-no-existe") == "?"
