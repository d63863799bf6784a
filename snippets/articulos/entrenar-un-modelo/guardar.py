import tempfile
from pathlib import Path

with tempfile.TemporaryDirectory() as carpeta:
    ruta = Path(carpeta) / "modelo.pt"
    torch.save(modelo.state_dict(), ruta)  # solo el estado, no la clase ni el código
    copia = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1)).to(dispositivo)
    # map_location: los tensores leídos se crean en el dispositivo donde se van a usar.
    copia.load_state_dict(torch.load(ruta, map_location=dispositivo))

    # Un punto de control para reanudar: también el optimizador y la época.
    punto = {
        "epoca": len(perdidas),
        "modelo": modelo.state_dict(),
        "optimizador": optimizador.state_dict(),
    }
    torch.save(punto, Path(carpeta) / "punto_de_control.pt")
    cargado = torch.load(Path(carpeta) / "punto_de_control.pt", map_location=dispositivo)

copia.eval()
with torch.no_grad():
    entradas = x_prueba.to(dispositivo)
    igual = torch.equal(copia(entradas), modelo(entradas))
print("la copia predice igual:", igual)  # Expectativa: True
print("punto de control:", list(cargado), "· época", cargado["epoca"])
