import torch
x = torch.tensor(3.0, requires_grad=True)
(x*x).backward()
(x*x).backward()
print(x.grad) # Expectativa: 12
x.grad = None
(x*x).backward()
print(x.grad) # Expectativa: 6
