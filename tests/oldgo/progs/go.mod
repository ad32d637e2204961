module gotrace.test/oldgo

go 1.19
