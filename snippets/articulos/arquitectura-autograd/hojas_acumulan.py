import torch

x = torch.tensor(3.0, requires_grad=True)
for llamada in range(1, 4):
    (x * x).backward()
    print(f"tras la llamada {llamada} a backward(): x.grad = {x.grad.item()}")
