w = torch.zeros((), requires_grad=True)  # peso: la pendiente, un escalar
b = torch.zeros((), requires_grad=True)  # sesgo: la ordenada en el origen
prediccion = w * x + b  # pasada directa: una predicción por punto, con broadcasting
perdida = ((prediccion - y) ** 2).mean()  # error cuadrático medio
print("forma de la predicción:", tuple(prediccion.shape))
print("pérdida con w = b = 0:", perdida)
print("es la media de y²:", torch.allclose(perdida, (y**2).mean()))  # Expectativa: True
