import torch

# Con qué CUDA se compiló este torch: None en los paquetes de solo CPU (en Linux, versión
# «+cpu»), que responden False a is_available() en cualquier máquina, tenga o no GPU.
print("torch compilado con CUDA:", torch.version.cuda)
disponible = torch.cuda.is_available()
print("CUDA disponible:", disponible)
if disponible:
    print("GPU:", torch.cuda.get_device_name(0))
