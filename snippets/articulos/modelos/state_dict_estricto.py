try:
    secuencial.load_state_dict(estado)  # estricto por defecto: los nombres deben casar
except RuntimeError as error:
    print("estricta:", str(error).splitlines()[0])
resultado = secuencial.load_state_dict(estado, strict=False)
print("con strict=False, faltan:", resultado.missing_keys)
print("con strict=False, sobran:", resultado.unexpected_keys)
