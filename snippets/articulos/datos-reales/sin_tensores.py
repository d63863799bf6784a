from torch import nn


class DigitosSinTensores(Dataset):
    """Cada ejemplo en números de Python: 64 floats de 0 a 1 y un int."""

    def __init__(self, ruta):
        with Path(ruta).open(newline="") as archivo:
            self.filas = [[int(v) for v in linea] for linea in csv.reader(archivo)]

    def __len__(self):
        return len(self.filas)

    def __getitem__(self, i):
        fila = self.filas[i]
        return [valor / 16 for valor in fila[:64]], fila[64]


cargador_sin = DataLoader(DigitosSinTensores("digitos.csv"), batch_size=4)
pixeles, clases_lote = next(iter(cargador_sin))
print("píxeles:", type(pixeles).__name__, "de", len(pixeles), "tensores")
print("cada uno:", tuple(pixeles[0].shape), pixeles[0].dtype)
print("clases:", clases_lote, clases_lote.dtype)
x = torch.stack(pixeles, dim=1)  # de vuelta a una fila por imagen
print("apilados:", tuple(x.shape), x.dtype)
nn.Linear(64, 10)(x)  # pesos en float32, entrada en float64
