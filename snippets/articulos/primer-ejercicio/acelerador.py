import torch

available = torch.cuda.is_available()
print("CUDA disponible:", available)
if available:
    print("GPU:", torch.cuda.get_device_name(0))
