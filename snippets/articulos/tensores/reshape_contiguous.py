plano = t.reshape(6)  # aquí no cabe una vista: reshape copia
print("reshape:", plano)
print("¿copió?", plano.data_ptr() != t.data_ptr())  # Expectativa: True
ordenada = t.contiguous()  # una copia contigua, con los elementos en el orden de t
print("contigua:", ordenada.is_contiguous(), "· view ya funciona:", ordenada.view(6))
print("contiguous() de un tensor contiguo es él mismo:", v.contiguous() is v)  # Expectativa: True
copia = x.clone()  # una copia explícita, sea cual sea la disposición
copia[0] = -1
print("x no cambia con su copia:", x[0].item())  # Expectativa: 100
