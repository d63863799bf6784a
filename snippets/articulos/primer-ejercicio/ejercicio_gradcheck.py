import torch
from torch.autograd import gradcheck
from torch.autograd.gradcheck import GradcheckError

# gradcheck compara el gradiente de autograd con diferencias finitas en float64.
x = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float64, requires_grad=True)
print("gradcheck de x·x:", gradcheck(lambda t: (t * t).sum(), (x,)))  # Expectativa: True


class CuadradoMal(torch.autograd.Function):
    """t², con una derivada equivocada a propósito: 3t en lugar de 2t."""

    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t

    @staticmethod
    def backward(ctx, gradiente):
        (t,) = ctx.saved_tensors
        return gradiente * 3 * t


def suma_mal(t):
    return CuadradoMal.apply(t).sum()


try:
    gradcheck(suma_mal, (x,))
except GradcheckError as error:
    print("con la derivada mal, lanza", type(error).__name__, "·", str(error).splitlines()[0])
print("con raise_exception=False:", gradcheck(suma_mal, (x,), raise_exception=False))
