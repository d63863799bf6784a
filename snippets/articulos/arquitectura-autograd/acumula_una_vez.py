import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
z = x * w + x
nodo_x = z.grad_fn.next_functions[1][0]  # la suma recibe x * w y x: su segunda entrada es x
print("nodo:", nodo_x.name(), "· de x:", nodo_x.variable is x)
recibido = []  # lo que llega a AccumulateGrad en cada ejecución
nodo_x.register_prehook(lambda gradientes: recibido.append(gradientes[0].item()))
z.backward()
print("ejecuciones de AccumulateGrad de x:", len(recibido))  # Expectativa: 1
print("lo que recibió, la suma de los dos caminos:", recibido)  # Expectativa: [4]
print("x.grad:", x.grad.item())  # Expectativa: 4
