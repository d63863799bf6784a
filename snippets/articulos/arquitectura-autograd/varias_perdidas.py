import torch

x = torch.tensor(3.0, requires_grad=True)


def perdidas():
    comun = x * x  # la parte del cálculo que comparten las dos pérdidas
    return 2 * comun, comun + x


# Dos llamadas: la primera necesita retain_graph para no liberar la parte común.
perdida_a, perdida_b = perdidas()
perdida_a.backward(retain_graph=True)
perdida_b.backward()
print("dos llamadas:", x.grad.item())  # Expectativa: 19

# Sumadas, una sola retropropagación: la parte común se recorre una vez y no se retiene nada.
x.grad = None
perdida_a, perdida_b = perdidas()
(perdida_a + perdida_b).backward()
print("sumadas:", x.grad.item())  # Expectativa: 19
