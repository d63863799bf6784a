import torch

w = torch.nn.Parameter(torch.zeros(1))
optimizador = torch.optim.SGD([w], lr=0.1)
programador = torch.optim.lr_scheduler.StepLR(optimizador, step_size=3, gamma=0.5)
for epoca in range(1, 9):
    print(f"época {epoca}: lr {programador.get_last_lr()[0]}")
    optimizador.step()  # aquí iría la época de entrenamiento
    programador.step()  # después del optimizador, una vez por época
