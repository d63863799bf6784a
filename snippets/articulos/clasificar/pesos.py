pesos = torch.tensor([1.0, 2.0, 3.0])  # un peso por clase
criterio_pesado = nn.CrossEntropyLoss(weight=pesos)
con_indices = criterio_pesado(logits, lote_y)
con_probabilidades = criterio_pesado(logits, como_probabilidades)  # las mismas clases, one-hot
print(f"índices: {con_indices.item():.4f} · probabilidades: {con_probabilidades.item():.4f}")

# La misma suma de pérdidas ponderadas, dividida entre dos cosas distintas.
suma = nn.CrossEntropyLoss(weight=pesos, reduction="sum")(logits, lote_y)
print("pesos de las clases del lote:", pesos[lote_y].tolist())
print(f"suma / suma de esos pesos: {(suma / pesos[lote_y].sum()).item():.4f}")
print(f"suma / número de ejemplos: {(suma / len(lote_y)).item():.4f}")
