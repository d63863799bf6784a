# Un peso que vale 1 y del que la pérdida no depende: su gradiente es 0.
# Un paso de cada optimizador, con lr=0,1 y dos valores de weight_decay.
for decaimiento in (0.01, 0.0001):
    for clase in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW):
        w = nn.Parameter(torch.tensor([1.0]))
        optimizador = clase([w], lr=0.1, weight_decay=decaimiento)
        w.grad = torch.zeros(1)
        optimizador.step()
        print(f"weight_decay={decaimiento}, {clase.__name__}: w = {w.item():.6f}")
for clase in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW):
    print(f"{clase.__name__}, weight_decay por defecto:", clase([w]).defaults["weight_decay"])
