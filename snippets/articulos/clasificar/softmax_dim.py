# dim=0 es la dimensión de los ejemplos: cada columna suma 1, no cada fila.
por_columnas = logits.softmax(dim=0)
print("filas:", por_columnas.sum(dim=1))
print("columnas:", por_columnas.sum(dim=0))  # Expectativa: [1, 1, 1]
# Sin dim, PyTorch avisa y elige la dimensión por su cuenta.
sin_dim = nn.functional.softmax(logits)
print("sin dim, igual que con dim=1:", torch.equal(sin_dim, probabilidades))
