plano = t.view(6)  # t no es contigua: sus elementos no se leen en orden en memoria
