segura = torch.tensor([[20.0, -20.0, -20.0]])  # casi toda la probabilidad para la clase 0
clase = torch.tensor([0])
print(f"sin suavizado: {nn.CrossEntropyLoss()(segura, clase).item():.4f}")  # Expectativa: 0
suavizada = nn.CrossEntropyLoss(label_smoothing=0.1)(segura, clase)
print(f"con label_smoothing=0.1: {suavizada.item():.4f}")
