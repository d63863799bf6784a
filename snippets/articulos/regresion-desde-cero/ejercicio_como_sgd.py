import torch

generador = torch.Generator().manual_seed(0)
x = torch.rand(100, generator=generador) * 4 - 2
y = 2 * x - 1 + 0.5 * torch.randn(100, generator=generador)


def con_sgd(epocas=60):
    """Los valores de w y b tras cada paso de SGD."""
    w = torch.zeros((), requires_grad=True)
    b = torch.zeros((), requires_grad=True)
    optimizador = torch.optim.SGD([w, b], lr=0.1)
    pasos = []
    for _ in range(epocas):
        optimizador.zero_grad()
        ((w * x + b - y) ** 2).mean().backward()
        optimizador.step()
        pasos.append((w.item(), b.item()))
    return pasos


def a_mano(con_add, epocas=60):
    """Los mismos pasos, escritos a mano de una de las dos maneras."""
    w = torch.zeros((), requires_grad=True)
    b = torch.zeros((), requires_grad=True)
    pasos = []
    for _ in range(epocas):
        ((w * x + b - y) ** 2).mean().backward()
        with torch.no_grad():
            for parametro in (w, b):
                if con_add:
                    parametro.add_(parametro.grad, alpha=-0.1)  # como lo escribe SGD
                else:
                    parametro.sub_(0.1 * parametro.grad)  # lo mismo que -=: producto y luego resta
                parametro.grad = None
        pasos.append((w.item(), b.item()))
    return pasos


referencia = con_sgd()
iguales_resta = sum(p == q for p, q in zip(a_mano(con_add=False), referencia, strict=True))
iguales_add = sum(p == q for p, q in zip(a_mano(con_add=True), referencia, strict=True))
print(f"con -=:   {iguales_resta} de 60 pasos idénticos a SGD")
print(f"con add_: {iguales_add} de 60 pasos idénticos a SGD")  # Expectativa: 60 de 60
