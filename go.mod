module github.com/docscore/docscore

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/agnivade/levenshtein v1.2.2
	github.com/gomarkdown/markdown v0.0.0-20261107153045-a51d70be185e
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/spf13/cobra v1.10.2
)

require (
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/term v0.44.0 // indirect
)

require (
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.17.9 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.21 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	golang.org/x/sys v0.46.0 // indirect
	golang.org/x/text v0.44.0
	google.golang.org/protobuf v1.34.2 // indirect
)

require (
	github.com/expr-lang/expr v1.17.8
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/parquet-go/parquet-go v0.32.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/pflag v1.0.9
)
