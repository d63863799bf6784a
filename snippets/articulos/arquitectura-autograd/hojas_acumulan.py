import torch

x = torch.tensor(3.0, requires_grad=True)
for step in range(1, 4):
    (x * x).backward()
    print(f"tras el backward {step}: x.grad = {x.grad.item()}")
