module github.com/docscore/docscore

go 1.26

require (
	github.com/agnivade/levenshtein v1.2.2
	github.com/gomarkdown/markdown v0.0.0-20261107153045-a51d70be185e
	github.com/spf13/cobra v1.10.2
	github.com/syumai/workers v0.33.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)
