import torch

# Only the CPU: this checks the installation, not the accelerator.
a = torch.ones(2, device="cpu")
print(a + a)
