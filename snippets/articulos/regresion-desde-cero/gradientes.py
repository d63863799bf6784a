perdida.backward()  # retropropagación: deja dL/dw en w.grad y dL/db en b.grad
print("w.grad:", w.grad, "| b.grad:", b.grad)

# Las mismas derivadas, a mano: dL/dw = 2·media((ŷ − y)·x) y dL/db = 2·media(ŷ − y)
error = (prediccion - y).detach()
print("a mano:", 2 * (error * x).mean(), 2 * error.mean())
print("coinciden:", torch.allclose(w.grad, 2 * (error * x).mean()))  # Expectativa: True
