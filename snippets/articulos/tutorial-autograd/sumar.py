y = x + 2
print(y)
