module github.com/docscore/docscore

go 1.26

require (
	github.com/agnivade/levenshtein v1.2.2
	github.com/gomarkdown/markdown v0.0.0-20261107153045-a51d70be185e
	github.com/spf13/cobra v1.10.2
)

require golang.org/x/text v0.14.0 // indirect

require (
	github.com/expr-lang/expr v1.17.8
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/pflag v1.0.9 // indirect
)
