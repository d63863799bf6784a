print(x.grad)  # Expectativa: [[4.5, 4.5], [4.5, 4.5]]
