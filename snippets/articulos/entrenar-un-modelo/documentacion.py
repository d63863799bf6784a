import inspect

documentacion = inspect.getdoc(torch.use_deterministic_algorithms)
print("la documentación instalada pide CUBLAS_WORKSPACE_CONFIG:", end=" ")
print("CUBLAS_WORKSPACE_CONFIG" in documentacion)  # Expectativa: False
