import torch

# Solo la CPU: esto comprueba la instalación, no el acelerador.
a = torch.ones(2, device="cpu")
print(a + a)
