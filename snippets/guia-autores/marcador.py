import torch

t = torch.zeros(2)
print(f"dirección de memoria: {t.data_ptr():#x}")
print(t.sum().item())  # Expectativa: 0
