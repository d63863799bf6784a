palabras = ["tensor", "gradiente", "capa", "modelo", "lote", "peso", "sesgo", "dato"]
# El orden de un set de cadenas depende de PYTHONHASHSEED (hash_seed).
vocabulario = set(palabras)
print(list(vocabulario))
print({palabra: indice for indice, palabra in enumerate(vocabulario)})
