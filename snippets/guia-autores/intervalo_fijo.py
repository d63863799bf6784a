# Un intervalo que fija el código, no un tiempo medido: con literal="elapsed"
# la construcción compara este número como cualquier otro.
intervalo = 0.25
print(f"guardar un punto de control cada {intervalo} s")
