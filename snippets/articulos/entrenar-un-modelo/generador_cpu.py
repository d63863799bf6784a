torch.manual_seed(0)
en_cpu = nn.Linear(2, 1)  # los pesos iniciales salen del generador de la CPU
estado = torch.random.get_rng_state()  # el estado del generador de la CPU
torch.manual_seed(0)
movida = nn.Linear(2, 1).to(dispositivo)  # la misma capa, creada igual y movida
sin_sacar = torch.equal(estado, torch.random.get_rng_state())
print(".to() no saca números:", sin_sacar)  # Expectativa: True
iguales = torch.equal(en_cpu.weight, movida.weight.cpu())
print("los mismos pesos iniciales:", iguales)  # Expectativa: True
print("el generador del orden de los lotes está en:", cargador.generator.device)
