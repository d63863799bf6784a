import math

from torch import nn

criterio = nn.CrossEntropyLoss()


def nuevo_modelo(ancho, p_dropout=0.0, semilla=0):
    """Una capa oculta de `ancho` unidades; con la misma semilla, los mismos pesos iniciales."""
    torch.manual_seed(semilla)
    return nn.Sequential(
        nn.Linear(64, ancho),
        nn.ReLU(),
        nn.Dropout(p_dropout),  # con p_dropout=0 no cambia nada
        nn.Linear(ancho, 10),
    )


def evaluar(modelo, x, y):
    """Pérdida media y exactitud de `modelo` con (x, y), en modo de evaluación y sin grafo."""
    modelo.eval()
    with torch.no_grad():
        logits = modelo(x)
        perdida = criterio(logits, y).item()
        exactitud = (logits.argmax(dim=1) == y).float().mean().item()
    return perdida, exactitud


perdida, exactitud = evaluar(nuevo_modelo(64), x_val, y_val)
print(f"sin entrenar: pérdida de validación {perdida:.4f}, exactitud {exactitud:.4f}")
print(f"log 10 = {math.log(10):.4f}")
