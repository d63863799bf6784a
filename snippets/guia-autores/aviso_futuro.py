import warnings

import torch


def escala(x, factor=None):
    if factor is None:
        # Así avisa una biblioteca de que un comportamiento va a cambiar.
        aviso = "factor=None dejará de valer 1.0: pásalo explícito"
        warnings.warn(aviso, FutureWarning, stacklevel=2)
        factor = 1.0
    return x * factor


print(escala(torch.ones(2)))
print(escala(torch.ones(2), factor=2.0))
