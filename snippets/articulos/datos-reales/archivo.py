import csv
from pathlib import Path

# Cada línea del archivo, una lista de cadenas (el texto entre comas).
with Path("digitos.csv").open(newline="") as archivo:
    lineas = list(csv.reader(archivo))
print("líneas:", len(lineas))  # Expectativa: 1797
print("valores por línea:", sorted({len(linea) for linea in lineas}))  # Expectativa: [65]
print("primera línea, los 8 primeros valores:", lineas[0][:8])
print("primera línea, el último valor (la clase):", lineas[0][-1])
