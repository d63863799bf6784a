ancho = Regresor(entradas=4, ocultas=16)  # los mismos nombres, con otras formas
# strict=False perdona los nombres que faltan o sobran, no una forma distinta.
ancho.load_state_dict(estado, strict=False)
