x = torch.ones(2, 2, requires_grad=True)
print(x)
