import torch

x = torch.tensor(3.0, requires_grad=True)
y = x**3
# create_graph=True: la derivada devuelta tiene su propio grafo y se puede derivar.
(primera,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx =", primera.item())  # Expectativa: 27
print("¿se puede derivar?", primera.requires_grad)
print("x.grad sigue vacío:", x.grad)  # nada enlaza x con su gradiente: no hay ciclo
(segunda,) = torch.autograd.grad(primera, x)
print("d²y/dx² =", segunda.item())  # Expectativa: 18
