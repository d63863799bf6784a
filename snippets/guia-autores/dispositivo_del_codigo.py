import torch

# Como en el tutorial «Tensors» de PyTorch: el código decide dónde van sus tensores.
tensor = torch.ones(2, 2)
if torch.cuda.is_available():
    tensor = tensor.to("cuda")
print("suma:", tensor.sum().item())

# Un tensor creado sin nombrar dispositivo vive en la CPU, así que .numpy() funciona.
t = torch.ones(3)
print(t.numpy())
