import torch

# El código elige su dispositivo: la GPU si la hay, si no la CPU.
dispositivo = "cuda" if torch.cuda.is_available() else "cpu"
unos = torch.ones(2, 2, device=dispositivo)
print("suma:", unos.sum().item())

# Un tensor creado sin nombrar dispositivo vive en la CPU, así que .numpy() funciona.
t = torch.ones(3)
print(t.numpy())
