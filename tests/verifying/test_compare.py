"""verifying.compare: how recorded and observed outputs and expectations are matched."""

from __future__ import annotations

from docverify.verifying import compare


def test_compare_rules() -> None:
    tol = compare.Tolerance(rtol=1e-5, atol=1e-8)
    assert compare.matches("tensor([1.0000, 2.0000])", "tensor([1.0000, 2.0000])  \n\n", tol)
    assert compare.matches("a = [..] fin", "a = 0x7f3a12 fin", tol)
    assert not compare.matches("a = [..] fin", "a = 0x7f3a12 final", tol)
    assert compare.matches("x 1.000001", "x 1.000002", tol)
    assert not compare.matches("x 1.0", "x 1.1", tol)
    assert not compare.matches("una\nlínea", "una", tol)
    assert compare.expectation_holds("12", "tensor(12.)", tol)
    assert not compare.expectation_holds("12", "tensor([12., 1.])", tol)
    # The runner's device and the dtype are metadata, not values (GPU: device='cuda:0').
    assert compare.expectation_holds("6", "tensor(6., device='cuda:0')", tol)
    assert compare.expectation_holds(
        "27", "tensor(27., device='cuda:0', grad_fn=<MulBackward0>)", tol
    )
    assert compare.expectation_holds("12", "tensor(12., dtype=torch.float64)", tol)
    assert not compare.expectation_holds("6", "tensor(7., device='cuda:0')", tol)
    assert compare.merge("v [..]\nfijo", "v 9\notro", tol) == "v [..]\notro"


TOL = compare.Tolerance(rtol=1e-5, atol=1e-8)


def test_numbers_compare_within_both_tolerances_and_nan_only_matches_nan() -> None:
    # |0 - 1e-9| is within atol alone (rtol of 0 is 0); 1e-7 is not.
    assert compare.matches("x 0.0", "x 1e-9", TOL)
    assert not compare.matches("x 0.0", "x 1e-7", TOL)
    # nan is never close to a number, either side; any nan spelling is nan.
    assert compare.matches("x nan", "x -nan", TOL)
    assert not compare.matches("x nan", "x 1.0", TOL)
    assert not compare.matches("x 1.0", "x nan", TOL)


def test_comparable_applies_only_the_blocks_volatile_rules() -> None:
    text = "<function f at 0x7f2c1a3b9e50>"
    assert compare.comparable(text, compare.Tolerance(0, 0, volatile=())) == text
    tol = compare.Tolerance(0, 0, volatile=("address",))
    assert compare.comparable(text, tol) == "<function f at [dirección]>"


def test_diff_of_an_emptied_output_removes_its_lines_and_adds_none() -> None:
    assert compare.diff("a\n", "", "grabación", "observada") == (
        "--- grabación\n+++ observada\n@@ -1 +0,0 @@\n-a"
    )
    assert compare.diff("a\n", "a", "grabación", "observada") == ""
    assert compare.diff("a\nb", "a\nb", "r", "o", starts=((0, 1, 2), (0, 1, 2))) == ""


def test_diff_numbers_hunks_as_the_original_texts_with_three_lines_of_context() -> None:
    before = "\n".join(f"l{i}" for i in range(10))
    after = before.replace("l7", "X")
    # Each compared line of the recording joined two original lines; the output's did not.
    starts = (tuple(range(0, 21, 2)), tuple(range(11)))
    assert compare.diff(before, after, "r", "o", starts=starts) == "\n".join(
        ["--- r", "+++ o", "@@ -9,12 +5,6 @@", " l4", " l5", " l6", "-l7", "+X", " l8", " l9"]
    )


def test_diff_writes_one_line_and_empty_ranges_as_difflib_does() -> None:
    one = ((3, 4), (0, 1))
    assert compare.diff("a", "b", "r", "o", starts=one) == "--- r\n+++ o\n@@ -4 +1 @@\n-a\n+b"
    view_of_one_line = ((0, 1), (0, 1))
    assert compare.diff("", "x", "r", "o", starts=view_of_one_line) == (
        "--- r\n+++ o\n@@ -0,0 +1 @@\n+x"
    )
    assert compare.diff("x", "", "r", "o", starts=view_of_one_line) == (
        "--- r\n+++ o\n@@ -1 +0,0 @@\n-x"
    )


def test_diff_numbers_lines_past_the_known_starts_as_the_last_one() -> None:
    # A lone \r splits a compared line (normalise) but not the original's (View.starts):
    # eight compared lines of one original line; lines past the starts count as its end.
    before = "p\rq\rr\rs\rt\ru\rv\rw"
    after = "p\nq\nr\ns\nt\nu\nv\nX"
    starts = ((0, 1), tuple(range(9)))
    assert compare.diff(before, after, "r", "o", starts=starts) == "\n".join(
        ["--- r", "+++ o", "@@ -1,0 +5,4 @@", " t", " u", " v", "-w", "+X"]
    )


def test_merge_keeps_each_recorded_line_that_still_matches_in_place() -> None:
    assert compare.merge("v [..]\nfin", "v 9\nfin", TOL) == "v [..]\nfin"
    # A replaced stretch after an equal line: line by line, by position in the stretch.
    assert compare.merge("a\n[..]\nb", "a\n5\nc", TOL) == "a\n[..]\nc"
    # Inserted and deleted lines are the observed ones.
    assert compare.merge("a\nb", "a\nx\nb", TOL) == "a\nx\nb"
    assert compare.merge("a\nx\nb", "a\nb", TOL) == "a\nb"


def test_merge_aligns_long_outputs_with_repeated_lines() -> None:
    # 250 equal lines: difflib's autojunk would call them junk and align nothing, losing [..].
    repeated = "\nx" * 250
    merged = compare.merge("[..]" + repeated + "\na", "5" + repeated, TOL)
    assert merged == "[..]" + repeated


def test_expectations_need_an_output_and_text_ones_a_substring() -> None:
    assert not compare.expectation_holds("1", None, TOL)
    assert compare.expectation_holds(" hola ", "dice hola mundo", TOL)
    assert not compare.expectation_holds("adiós", "dice hola mundo", TOL)


def _raised(**extra: object) -> dict:
    result = {
        "output": "",
        "error": None,
        "exception": "ValueError: a: b c",
        "traceback": "",
        "expectations": [],
        "duration": 0.0,
    }
    return result | extra


def test_declared_exception_splits_at_the_first_colon_and_tolerates_missing_fields() -> None:
    full = _raised(exception_type=["ValueError", "builtins.ValueError"], exception_message="a: b c")
    assert compare.declared_exception("ValueError: a: b", full)
    assert not compare.declared_exception("ValueError: b", full)
    assert not compare.declared_exception("ValueError", _raised(exception_message="a: b c"))
    no_message = _raised(exception_type=["ValueError", "builtins.ValueError"])
    assert compare.declared_exception("ValueError", no_message)
    assert not compare.declared_exception("ValueError: XX", no_message)
