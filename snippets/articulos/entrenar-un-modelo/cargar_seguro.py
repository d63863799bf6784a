import datetime
import pickle
import tempfile
from pathlib import Path

with tempfile.TemporaryDirectory() as carpeta:
    ruta = Path(carpeta) / "con_fecha.pt"
    # Una fecha es un objeto de Python corriente, pero no un tensor ni un tipo básico.
    torch.save({"modelo": modelo.state_dict(), "fecha": datetime.date(2026, 12, 1)}, ruta)
    try:
        torch.load(ruta)
    except pickle.UnpicklingError as error:
        print("torch.load se niega:", str(error).split(".")[0])
