def crear_red():
    return nn.Sequential(
        nn.Conv2d(1, 8, kernel_size=3, padding=1),  # (N, 1, 8, 8) → (N, 8, 8, 8)
        nn.ReLU(),
        nn.MaxPool2d(2),  # → (N, 8, 4, 4)
        nn.Conv2d(8, 16, kernel_size=3, padding=1),  # → (N, 16, 4, 4)
        nn.ReLU(),
        nn.MaxPool2d(2),  # → (N, 16, 2, 2)
        nn.Flatten(),  # → (N, 64)
        nn.Linear(16 * 2 * 2, 10),  # un logit por dígito
    )


torch.manual_seed(0)
red = crear_red()
x, _ = next(iter(DataLoader(entrenamiento, batch_size=64)))
print(f"{'entrada':>10}: {tuple(x.shape)}")
for capa in red:  # un Sequential se recorre capa a capa, en orden
    x = capa(x)
    print(f"{type(capa).__name__:>10}: {tuple(x.shape)}")
