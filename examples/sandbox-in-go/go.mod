module example.com/sandbox-in-go

go 1.19
