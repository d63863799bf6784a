modelo.eval()
aciertos = 0
with torch.inference_mode():
    for x_lote, y_lote in DataLoader(validacion, batch_size=270):
        aciertos += (modelo(x_lote).argmax(dim=1) == y_lote).sum().item()
print(f"validación: {aciertos} de {len(validacion)} aciertos")
print(f"exactitud en validación: {aciertos / len(validacion):.4f}")
