# El acelerador de la máquina (CUDA, MPS, XPU…) si hay uno disponible; si no, la CPU.
if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")
print("dispositivo:", dispositivo)
