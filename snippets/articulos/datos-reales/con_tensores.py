class DigitosConTensores(DigitosSinTensores):
    """El mismo archivo, pero cada ejemplo sale como tensores: float32 y int64."""

    def __getitem__(self, i):
        fila = self.filas[i]
        return torch.tensor(fila[:64], dtype=torch.float32) / 16, torch.tensor(fila[64])


pixeles, clases_lote = next(iter(DataLoader(DigitosConTensores("digitos.csv"), batch_size=4)))
print("píxeles:", tuple(pixeles.shape), pixeles.dtype)
print("clases:", tuple(clases_lote.shape), clases_lote.dtype)
