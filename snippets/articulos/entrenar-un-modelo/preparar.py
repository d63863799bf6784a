import os

import torch
from torch import nn

# Para versiones anteriores de torch en GPU: antes de la primera operación en CUDA.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
torch.use_deterministic_algorithms(True)  # error si una operación no puede ser determinista
activados = torch.are_deterministic_algorithms_enabled()
print("algoritmos deterministas:", activados)  # Expectativa: True
