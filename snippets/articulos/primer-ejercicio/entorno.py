import platform

import torch

print("Python:", platform.python_version())
print("torch:", torch.__version__)
print("dispositivo por defecto:", torch.get_default_device())
