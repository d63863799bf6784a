for nombre, parametro in capa.named_parameters():
    print(f"{nombre}: forma {tuple(parametro.shape)}, {type(parametro).__name__},", end=" ")
    print("requires_grad =", parametro.requires_grad)
