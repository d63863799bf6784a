import copy

guardado = ancho.state_dict()  # un diccionario nuevo, con referencias a los tensores del modelo
copia = copy.deepcopy(ancho.state_dict())  # tensores nuevos, con sus propios datos
peso = ancho[0].weight
print("¿el mismo objeto?", guardado["0.weight"] is peso)
print("¿pide gradiente?", guardado["0.weight"].requires_grad, peso.requires_grad)
print("¿los mismos datos? guardado:", guardado["0.weight"].data_ptr() == peso.data_ptr())
print("¿los mismos datos? copia:", copia["0.weight"].data_ptr() == peso.data_ptr())

antes = peso[0, 0].item()
entrenar_paso(ancho, torch.optim.Adam(ancho.parameters(), lr=0.01), x_poco, y_poco)  # un paso más
print(f"peso[0, 0] en el modelo: {antes:.6f} → {peso[0, 0].item():.6f}")
print(f"en guardado: {guardado['0.weight'][0, 0].item():.6f}")
print(f"en la copia: {copia['0.weight'][0, 0].item():.6f}")
