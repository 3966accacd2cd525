import LiveryCore

print("stub")
