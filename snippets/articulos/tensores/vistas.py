import torch

x = torch.arange(6)
v = x.view(2, 3)  # otra forma sobre la misma memoria
v[0, 0] = 100
print("x tras escribir en la vista:", x)  # Expectativa: [100, 1, 2, 3, 4, 5]
print("misma memoria:", v.data_ptr() == x.data_ptr())  # Expectativa: True
t = v.t()  # la traspuesta también es una vista: solo cambian los saltos
print("saltos de v:", v.stride(), "· saltos de t:", t.stride())
print("¿contiguos?", v.is_contiguous(), t.is_contiguous())  # Expectativa: True False
