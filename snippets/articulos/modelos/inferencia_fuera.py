siguiente(inferencia)  # Linear guarda su entrada para el gradiente del peso
