import torch

# El acelerador de la máquina (CUDA, MPS, XPU…) si hay uno disponible; si no, la CPU.
if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")
x = torch.tensor([1.0, 2.0])  # sin dispositivo: en el dispositivo por defecto, la CPU
y = x.to(dispositivo)  # una copia en ese dispositivo, o x mismo si ya está allí
print("dispositivo elegido:", dispositivo.type)
print("x en:", x.device.type, "· y en:", y.device.type)
print("¿y es x?", y is x)
try:
    print("x + y:", (x + y).tolist())
except RuntimeError:
    print("x + y: RuntimeError, están en dispositivos distintos")
print("y, de vuelta a NumPy:", y.cpu().numpy())
