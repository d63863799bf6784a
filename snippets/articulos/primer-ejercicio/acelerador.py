import torch

# Con qué CUDA se compiló este torch: None en las ruedas +cpu, que responden
# False a is_available() en cualquier máquina, tenga o no GPU.
print("torch compilado con CUDA:", torch.version.cuda)
available = torch.cuda.is_available()
print("CUDA disponible:", available)
if available:
    print("GPU:", torch.cuda.get_device_name(0))
