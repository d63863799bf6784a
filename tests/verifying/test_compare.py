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
