if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")
modelo = modelo.to(dispositivo)  # el mismo modelo, con sus pesos iniciales, en el dispositivo
print("dispositivo:", dispositivo)
