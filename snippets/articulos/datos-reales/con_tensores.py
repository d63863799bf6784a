class DigitosConTensores(DigitosSinTensores):
    """El mismo archivo, pero cada ejemplo en tensores: float32 e int64."""

    def __getitem__(self, i):
        fila = self.filas[i]
        imagen = torch.tensor(fila[:64], dtype=torch.float32) / 16
        return imagen, torch.tensor(fila[64])


cargador_con = DataLoader(DigitosConTensores("digitos.csv"), batch_size=4)
pixeles, clases_lote = next(iter(cargador_con))
print("píxeles:", tuple(pixeles.shape), pixeles.dtype)
print("clases:", tuple(clases_lote.shape), clases_lote.dtype)
