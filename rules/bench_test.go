package rules

import (
	"os"
	"testing"
)

// BenchmarkParse parses the sample rule file (testdata/valid/sample.md).
func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile("testdata/valid/sample.md")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("sample.md", src); err != nil {
			b.Fatal(err)
		}
	}
}
