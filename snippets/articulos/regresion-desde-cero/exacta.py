A = torch.stack([x, torch.ones_like(x)], dim=1)  # una fila [x, 1] por punto: forma (100, 2)
solucion = torch.linalg.lstsq(A, y.unsqueeze(1)).solution  # y como columna: forma (100, 1)
w_exacta, b_exacta = solucion.flatten().tolist()
print(f"la recta de los datos:   w = {w_real:.4f}, b = {b_real:.4f}")
print(f"descenso de gradiente:   w = {w.item():.4f}, b = {b.item():.4f}")
print(f"mínimos cuadrados:       w = {w_exacta:.4f}, b = {b_exacta:.4f}")
diferencia = max(abs(w.item() - w_exacta), abs(b.item() - b_exacta))
print(f"mayor diferencia: {diferencia:.1e}")
print("a menos de 1e-5:", diferencia < 1e-5)  # Expectativa: True

# Con muchos más puntos de la misma recta, la solución exacta se acerca a 2 y −1
otro = torch.Generator().manual_seed(1)
x_mas = torch.rand(100_000, generator=otro) * 4 - 2
y_mas = w_real * x_mas + b_real + 0.5 * torch.randn(100_000, generator=otro)
A_mas = torch.stack([x_mas, torch.ones_like(x_mas)], dim=1)
w_mas, b_mas = torch.linalg.lstsq(A_mas, y_mas.unsqueeze(1)).solution.flatten().tolist()
print(f"con 100 000 puntos:      w = {w_mas:.4f}, b = {b_mas:.4f}")
