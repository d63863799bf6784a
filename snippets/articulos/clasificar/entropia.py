import math

criterio = nn.CrossEntropyLoss()
perdida = criterio(logits, lote_y)  # logits (4, 3) y clases (4,), enteros
print("clases del lote:", lote_y.tolist())
print(f"entropía cruzada: {perdida.item():.4f} · log 3 = {math.log(3):.4f}")

# Lo mismo a mano: menos el logaritmo de la probabilidad de la clase correcta, en media.
log_probabilidades = logits.log_softmax(dim=1)
a_mano = -log_probabilidades[torch.arange(4), lote_y].mean()
print("igual a mano:", torch.allclose(perdida, a_mano))  # Expectativa: True

# También acepta una probabilidad por clase: con un 1 en su clase y 0 en las demás, lo mismo.
como_probabilidades = nn.functional.one_hot(lote_y, num_classes=3).float()  # 1 en su clase
igual = torch.allclose(criterio(logits, como_probabilidades), perdida)
print("con probabilidades por clase:", igual)
