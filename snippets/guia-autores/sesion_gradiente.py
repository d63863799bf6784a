entrada = torch.ones(1, 2)
modelo(entrada).sum().backward()
print(modelo.weight.grad.tolist())  # Expectativa: 1 1
