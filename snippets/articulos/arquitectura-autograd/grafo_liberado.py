import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.backward()
print("tras la primera llamada, x.grad =", x.grad)
y.backward()  # la primera llamada liberó los factores que guardó MulBackward0
